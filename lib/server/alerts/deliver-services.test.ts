/**
 * PagerDuty, Microsoft Teams and Discord delivered for real: one webhook's incident driven by the
 * engine from firing through an update to its recovery, sent by the dispatcher to the sandbox's
 * stand-ins (which check each post as the service does) and looked at as they arrived — one
 * dedup_key from trigger to resolve, cards and embeds of the right shape, nobody pinged by a body
 * saying `@everyone`; each service's answers (PagerDuty's 400 final with its words, 429 and 5xx
 * retried, Discord's `retry_after` honoured); destinations sealed at rest on both databases; and
 * two dispatchers on one PostgreSQL sending each alert once per destination.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "@/lib/domain/alerts/rules";
import { incidentAlert } from "@/lib/domain/alerts/incident-message";
import type { AlertMessage } from "@/lib/domain/alerts/message";
import type { PagerDutyEvent } from "@/lib/domain/alerts/render-pagerduty";
import type { DiscordPayload } from "@/lib/domain/alerts/render-discord";
import type { TeamsMessage } from "@/lib/domain/alerts/render-teams";
import type { Webhook, WebhookLog } from "@/lib/domain/hub-schemas";
import type { AddDestination } from "@/lib/domain/inputs/alert-destination";
import { addDestination, listDestinations, openDestination } from "@/lib/server/alerts/destinations";
import { createDispatcher } from "@/lib/server/alerts/dispatch";
import { evaluateWebhook } from "@/lib/server/alerts/incidents";
import { alertPass, settleMs, type PassSettings } from "@/lib/server/alerts/notify";
import { enqueueAlert } from "@/lib/server/alerts/outbox";
import { saveAppRules } from "@/lib/server/alerts/rules-store";
import { applicationId } from "@/lib/server/session/key-hash";
import { claimDue, finishPoll, writeLogs } from "@/lib/server/watch/cursor";
import { addWatches } from "@/lib/server/watch/watches";
import { discordPings } from "@/lib/sandbox/inbox-pages";
import { INBOX_PATH } from "@/lib/sandbox/inbox";
import { startSandbox, type Sandbox } from "@/lib/sandbox/server";
import { startReceiver, type Answer, type TestReceiver } from "@/tests/sandbox/support/receiver";
import { dispatchUntilSettled, testDispatchSettings, untilSettled } from "@/tests/support/alert-outbox";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { webhookLog } from "@/tests/support/webhook-log";
import { postgresInstances, WATCH_DATABASES, watchDatabases } from "@/tests/support/watch-databases";

const databases = watchDatabases();
const APP = "0123456789abcdef";
const ROUTING_KEY = "R0UTINGKEY0123456789abcdefABCDEF";
const MINUTE = 60_000;
const T0 = Date.parse("2026-11-25T10:00:00Z");
const SETTINGS: PassSettings = { links: { origin: "https://console.example" }, intervalSeconds: 60 };
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const receivers: TestReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
/** A receiver on 127.0.0.1 answering as `answer` says, noting when each request came. */
async function receiver(answer: (index: number) => Answer): Promise<TestReceiver & { arrivals: number[] }> {
  const arrivals: number[] = [];
  const started = await startReceiver(() => {
    arrivals.push(Date.now());
    return answer(arrivals.length - 1);
  });
  receivers.push(started);
  return { ...started, arrivals };
}

const pagerDuty = (label = "On-call PagerDuty"): Extract<AddDestination, { kind: "pagerduty" }> => ({
  kind: "pagerduty",
  label,
  routingKey: ROUTING_KEY,
  region: "eu",
});

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dbPath: ":memory:", seed: "none", log: () => {} });
});
afterAll(() => sandbox.close({ graceMs: 0 }));
beforeEach(() => sandbox.inbox.clear());

const arrived = <T>(channel: string) =>
  sandbox.inbox
    .list()
    .filter((item) => item.channel === channel)
    .reverse()
    .map((item) => JSON.parse(item.body) as T);

describe("one incident, firing → updated → recovered, to the sandbox's stand-ins (sqlite)", () => {
  const KEY = "key-of-application-a-0123456789";
  const HOOK = "00000000-0000-4000-9000-0000000000aa";
  const BODY = "@everyone the endpoint is down, ping <@123> and <@&456>";
  let n = 0;
  const log = (at: number, status: number): WebhookLog =>
    webhookLog(HOOK, at, status, BODY, {
      id: `00000000-0000-4000-8000-${(++n).toString(16).padStart(12, "0")}`,
      messageId: `00000000-0000-4000-a000-${n.toString(16).padStart(12, "0")}`,
    });
  const attempts = (at: number, count: number, status: number) =>
    Array.from({ length: count }, (_, i) => log(at - i * 100, status));

  beforeEach(() => stubEnv({ SESSION_SECRET: "a-session-secret-for-tests-32-chars!" }));
  afterEach(() => restoreEnv());

  it("pairs trigger and resolve under the incident's id, and each post is what the service takes", async () => {
    const ctx = await databases.fresh("sqlite", { bodyCapBytes: 4096 });
    const appId = applicationId(KEY);
    const webhook: Webhook = {
      id: HOOK,
      endpoint: "https://shop.example/hooks",
      eventType: "Message",
      numberOfErrors: 0,
      active: true,
    };
    await addWatches(ctx, appId, KEY, [{ webhook, name: "<script>alert(1)</script> Shop" }], T0);
    await saveAppRules(ctx, appId, {
      ...DEFAULT_RULES,
      rate: { ...DEFAULT_RULES.rate, enabled: false },
      errorsJump: { ...DEFAULT_RULES.errorsJump, enabled: false },
    });
    const inbox = `${sandbox.url}${INBOX_PATH}`;
    await addDestination(ctx, appId, pagerDuty(), T0);
    await addDestination(ctx, appId, { kind: "teams", label: "Teams", url: `${inbox}/teams` }, T0);
    await addDestination(ctx, appId, { kind: "discord", label: "Discord", url: `${inbox}/discord` }, T0);

    const poll = async (at: number, logs: WebhookLog[]) => {
      await claimDue(ctx, "test", 10, MINUTE, at);
      await writeLogs(ctx, "test", HOOK, logs, { head_id: logs[0]!.id }, MINUTE, at);
      await finishPoll(ctx, "test", HOOK, { nextPollAt: at, error: null }, at);
      await evaluateWebhook(ctx, SETTINGS.links, appId, HOOK, at);
      await alertPass(ctx, SETTINGS, at + settleMs(SETTINGS.intervalSeconds));
    };
    await poll(T0 + MINUTE, attempts(T0 + MINUTE, 5, 503)); // fires: 5 in a row
    await poll(T0 + 5 * MINUTE, attempts(T0 + 5 * MINUTE, 45, 503)); // worse: 50 in a row
    await poll(T0 + 9 * MINUTE, attempts(T0 + 9 * MINUTE, 3, 200)); // recovered

    const deliveries = await dispatchUntilSettled(
      ctx,
      testDispatchSettings({ pagerDutyEventsUrl: `${inbox}/pagerduty` }),
    );
    expect(deliveries.map((d) => [d.alertKind, d.destinationLabel, d.state, d.statusCode])).toEqual([
      ["firing", "Discord", "delivered", 204],
      ["firing", "On-call PagerDuty", "delivered", 202],
      ["firing", "Teams", "delivered", 202],
      ["updated", "Discord", "delivered", 204],
      ["updated", "On-call PagerDuty", "delivered", 202],
      ["updated", "Teams", "delivered", 202],
      ["recovered", "Discord", "delivered", 204],
      ["recovered", "On-call PagerDuty", "delivered", 202],
      ["recovered", "Teams", "delivered", 202],
    ]);
    const [incident] = await ctx.db.selectFrom("alert_incidents").select("id").execute();
    const id = incident!.id;

    // PagerDuty: one alert opened, triggered again with more detail, resolved; all under the incident's id.
    const events = arrived<PagerDutyEvent>("pagerduty");
    expect(events.map((e) => [e.event_action, e.dedup_key, e.payload?.severity])).toEqual([
      ["trigger", id, "error"],
      ["trigger", id, "critical"],
      ["resolve", id, undefined],
    ]);
    expect(events[0]).toEqual({
      routing_key: ROUTING_KEY,
      event_action: "trigger",
      dedup_key: id,
      payload: {
        summary: "Failing: <script>alert(1)</script> Shop — 5 failures in a row",
        source: "shop.example",
        severity: "error",
        timestamp: expect.stringMatching(ISO),
        component: "<script>alert(1)</script> Shop",
        group: expect.any(String),
        class: "streak",
        custom_details: expect.objectContaining({
          conditions: [expect.objectContaining({ rule: "Failing streak", headline: "5 failures in a row" })],
          samples: expect.arrayContaining([expect.objectContaining({ statusCode: 503, body: BODY })]),
        }),
      },
      client: "Messaging Hub Webhook Console",
      client_url: `https://console.example/webhooks/${HOOK}?app=${appId}`,
      links: [{ href: `https://console.example/webhooks/${HOOK}?app=${appId}`, text: expect.any(String) }],
    });
    expect(events[2]).toEqual({ routing_key: ROUTING_KEY, event_action: "resolve", dedup_key: id });
    const answered = deliveries.find((d) => d.kind === "pagerduty")!.response;
    expect(JSON.parse(answered)).toEqual({ status: "success", message: "Event processed", dedup_key: id });

    // Teams: three cards, each an Adaptive Card with the facts and a button back.
    const cards = arrived<TeamsMessage>("teams").map((m) => m.attachments[0]!.content);
    expect(cards.map((card) => (card.body[0] as { text: string }).text.split(":")[0])).toEqual([
      "Failing",
      "Worse",
      "Recovered",
    ]);
    for (const card of cards) {
      expect(card).toMatchObject({ type: "AdaptiveCard", version: "1.4" });
      expect(card.body[1]).toMatchObject({ type: "FactSet", facts: expect.any(Array) });
      expect(card.actions).toEqual([
        { type: "Action.OpenUrl", title: "Open in the console", url: expect.stringContaining(HOOK) },
      ]);
      expect(JSON.stringify(card.body.at(-1))).toContain(`Incident ${id}`);
    }

    // Discord: three embeds that ping nobody, though the body says @everyone and names a user and a role.
    const messages = arrived<DiscordPayload>("discord");
    expect(messages.map((m) => m.embeds[0].color)).toEqual([0xd92d20, 0xf79009, 0x12b76a]);
    for (const message of messages) {
      expect(message.allowed_mentions).toEqual({ parse: [] });
      expect(discordPings(message as unknown as Record<string, unknown>)).toEqual([]);
      expect(JSON.stringify(message)).not.toMatch(/@everyone|<@/);
    }
    expect(JSON.stringify(messages[0])).toContain("@\u200beveryone the endpoint is down");

    // The inbox's pages show them as the services would, the hostile name as text.
    const page = async (service: string) => (await fetch(`${inbox}/${service}`)).text();
    const pd = await page("pagerduty");
    expect(pd).toContain("Resolved");
    expect(pd).toContain(id);
    for (const html of [pd, await page("teams"), await page("discord")]) {
      expect(html).not.toContain("<script>alert(1)");
      expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; Shop");
    }
    expect(await page("discord")).toContain("pings nobody");
  });
});

describe("each service's answers (sqlite)", () => {
  async function sendTo(input: AddDestination, target: TestReceiver, message = testMessage()) {
    const ctx = await databases.fresh("sqlite");
    await addDestination(ctx, APP, input);
    await enqueueAlert(ctx, APP, message);
    const [delivery] = await dispatchUntilSettled(
      ctx,
      testDispatchSettings({ pagerDutyEventsUrl: `${target.url}/v2/enqueue` }),
    );
    return delivery!;
  }

  it("PagerDuty's 400 is final, with PagerDuty's own words in the log", async () => {
    const target = await receiver(() => ({
      status: 400,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        status: "invalid event",
        message: "Event object is invalid",
        errors: ["'payload.summary' is missing or invalid"],
      }),
    }));
    const delivery = await sendTo(pagerDuty(), target);
    expect(delivery).toMatchObject({
      state: "failed",
      attempts: 1,
      statusCode: 400,
      error: "the receiver answered 400: Event object is invalid; 'payload.summary' is missing or invalid",
    });
    expect(target.requests).toHaveLength(1);
    expect(target.requests[0]!.path).toBe("/v2/enqueue");
  });

  it.each<[string, AddDestination, Answer]>([
    ["PagerDuty's 429", pagerDuty(), { status: 429, body: "{}" }],
    ["PagerDuty's 503", pagerDuty(), { status: 503 }],
    ["Teams' 502", { kind: "teams", label: "Teams", url: "" }, { status: 502 }],
    ["Discord's 500", { kind: "discord", label: "Discord", url: "" }, { status: 500 }],
  ])("%s is retried, and the next answer delivers", async (_name, input, first) => {
    const target = await receiver((index) =>
      index === 0 ? first : { status: input.kind === "discord" ? 204 : 202 },
    );
    const destination = "url" in input ? { ...input, url: `${target.url}/hook` } : input;
    const delivery = await sendTo(destination, target);
    expect(delivery).toMatchObject({ state: "delivered", attempts: 2 });
    expect(target.requests[0]!.body).toBe(target.requests[1]!.body);
  });

  it.each<[string, Answer, number]>([
    [
      "Discord's retry_after (seconds, in its JSON)",
      {
        status: 429,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: "You are being rate limited.", retry_after: 0.6, global: false }),
      },
      600,
    ],
    ["a Retry-After header", { status: 429, headers: { "retry-after": "1" } }, 1000],
  ])("a 429 is retried no sooner than %s says", async (_name, first, waitMs) => {
    const target = await receiver((index) => (index === 0 ? first : { status: 204 }));
    const delivery = await sendTo(
      { kind: "discord", label: "Discord", url: `${target.url}/api/webhooks/1/x` },
      target,
    );
    expect(delivery).toMatchObject({ state: "delivered", attempts: 2, statusCode: 204 });
    // The configured backoff is far shorter: only the service's own wait explains the gap.
    expect(target.arrivals[1]! - target.arrivals[0]!).toBeGreaterThanOrEqual(waitMs);
  });
});

describe.each(WATCH_DATABASES)("destinations sealed at rest (%s)", (kind) => {
  it("keeps the routing key and the URLs sealed, shows them masked, and opens them for the sender", async () => {
    const ctx = await databases.fresh(kind);
    const teams =
      "https://prod-12.westeurope.logic.azure.com:443/workflows/0a1b2c3d/triggers/manual/paths/invoke?api-version=2016-06-01&sig=Sig-Secret-Value-123";
    const discord = "https://discord.com/api/webhooks/123456789/Discord-Token-Secret-XYZ";
    await addDestination(ctx, APP, pagerDuty());
    await addDestination(ctx, APP, { kind: "teams", label: "Teams", url: teams });
    await addDestination(ctx, APP, { kind: "discord", label: "Discord", url: discord });
    const listed = await listDestinations(ctx, APP);
    expect(listed.map((d) => [d.kind, d.target])).toEqual([
      ["discord", "https://discord.com/…/••••-XYZ"],
      ["pagerduty", "PagerDuty EU, key ••••CDEF"],
      ["teams", "https://prod-12.westeurope.logic.azure.com/…/••••-123"],
    ]);
    const stored = JSON.stringify(await ctx.db.selectFrom("alert_destinations").selectAll().execute());
    for (const secret of [ROUTING_KEY, "Sig-Secret-Value-123", "Discord-Token-Secret-XYZ", "0a1b2c3d"])
      expect(stored).not.toContain(secret);
    const opened = await Promise.all(listed.map((d) => openDestination(ctx, APP, d.id)));
    expect(opened.map((d) => d.secrets)).toEqual([
      { url: discord },
      { routingKey: ROUTING_KEY, region: "eu" },
      { url: teams },
    ]);
  });

  it("refuses a routing key the application already sends to, by its field", async () => {
    const ctx = await databases.fresh(kind);
    await addDestination(ctx, APP, pagerDuty());
    await expect(addDestination(ctx, APP, { ...pagerDuty("Again"), region: "us" })).rejects.toMatchObject({
      fields: {
        routingKey: [
          'PagerDuty routing key: "On-call PagerDuty" sends to this address already. Use another address, or remove that destination first.',
        ],
      },
    });
  });
});

let incidents = 0;
/** A firing alert of its own incident. */
function testMessage(): AlertMessage {
  const id = `00000000-0000-4000-b000-${(++incidents).toString(16).padStart(12, "0")}`;
  return incidentAlert(
    {
      id,
      scope: "webhook",
      application: { id: APP, name: "Production" },
      webhook: { id: "wh-1", name: "Shop", endpoint: "https://shop.example/hook" },
      conditions: [
        { rule: "streak", headline: "5 failures in a row", since: T0, failures: 5, attempts: 5, codes: [] },
      ],
      since: T0,
      openedAt: T0,
    },
    [],
    SETTINGS.links,
    T0 + MINUTE,
  );
}

describe("two instances on one PostgreSQL", () => {
  const instance = postgresInstances();

  it("two dispatchers send each alert once to PagerDuty, Teams and Discord", async () => {
    const url = await databases.freshPostgresUrl();
    const [one, two] = [await instance(url), await instance(url)];
    const pd = await receiver(() => ({ status: 202, body: "{}" }));
    const teams = await receiver(() => ({ status: 202 }));
    const discord = await receiver(() => ({ status: 204 }));
    await addDestination(one, APP, pagerDuty());
    await addDestination(one, APP, { kind: "teams", label: "Teams", url: `${teams.url}/workflow` });
    await addDestination(one, APP, {
      kind: "discord",
      label: "Discord",
      url: `${discord.url}/api/webhooks/1/x`,
    });
    const alerts = Array.from({ length: 15 }, testMessage);
    const settings = testDispatchSettings({
      concurrency: 4,
      tickMs: 10,
      pagerDutyEventsUrl: `${pd.url}/v2/enqueue`,
    });
    const a = createDispatcher(one, settings, "instance-a");
    const b = createDispatcher(two, settings, "instance-b");
    try {
      for (const alert of alerts)
        await Promise.all([enqueueAlert(one, APP, alert), enqueueAlert(two, APP, alert)]);
      const deliveries = await untilSettled(one);
      expect(deliveries).toHaveLength(45);
      expect(deliveries.every((d) => d.state === "delivered" && d.attempts === 1)).toBe(true);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    const ids = alerts.map((alert) => alert.incident!.id).sort();
    const bodies = (target: TestReceiver) => target.requests.map((r) => r.body);
    expect(
      bodies(pd)
        .map((body) => (JSON.parse(body) as PagerDutyEvent).dedup_key)
        .sort(),
    ).toEqual(ids);
    const incidentOf = (body: string) => /Incident ([0-9a-f-]{36})/.exec(body)![1]!;
    expect(bodies(teams).map(incidentOf).sort()).toEqual(ids);
    expect(bodies(discord).map(incidentOf).sort()).toEqual(ids);
  });
});
