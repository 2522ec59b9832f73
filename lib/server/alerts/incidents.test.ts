import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Webhook, WebhookLog } from "@/lib/domain/hub-schemas";
import { parseDetail } from "@/lib/domain/alerts/incident-detail";
import type { AlertMessage } from "@/lib/domain/alerts/message";
import { DEFAULT_RULES, NO_OVERRIDE } from "@/lib/domain/alerts/rules";
import { statusMeaning } from "@/lib/domain/status-meaning";
import { rememberApplicationNames } from "@/lib/server/alerts/application-names";
import { addDestination } from "@/lib/server/alerts/destinations";
import { evaluateWebhook } from "@/lib/server/alerts/incidents";
import { alertPass, settleMs, type PassSettings } from "@/lib/server/alerts/notify";
import { saveAppRules, saveWebhookOverride } from "@/lib/server/alerts/rules-store";
import { applicationId } from "@/lib/server/session/key-hash";
import type { StoreContext } from "@/lib/server/store/context";
import { claimDue, finishPoll, recordWebhook, writeLogs } from "@/lib/server/watch/cursor";
import { openStoreContext } from "@/lib/server/store/context";
import { addWatches, markKeyRejected } from "@/lib/server/watch/watches";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { webhookLog } from "@/tests/support/webhook-log";
import { TEST_SECRET, WATCH_DATABASES, watchDatabases } from "@/tests/support/watch-databases";

const databases = watchDatabases();

const KEY = "key-of-application-a-0123456789";
const SECOND = 1000;
const MINUTE = 60_000;
const T0 = Date.parse("2026-11-25T10:00:00Z");
const SETTINGS: PassSettings = { links: { origin: "https://console.example" }, intervalSeconds: 60 };
const SETTLE = settleMs(SETTINGS.intervalSeconds);
const STREAK_ONLY = {
  ...DEFAULT_RULES,
  rate: { ...DEFAULT_RULES.rate, enabled: false },
  errorsJump: { ...DEFAULT_RULES.errorsJump, enabled: false },
};

let n = 0;
function uuid(): string {
  n++;
  return `00000000-0000-4000-9000-${n.toString(16).padStart(12, "0")}`;
}

function webhook(id: string, change: Partial<Webhook> = {}): Webhook {
  return {
    id,
    endpoint: `https://customer.example/${id}`,
    eventType: "Message",
    numberOfErrors: 0,
    active: true,
    ...change,
  };
}

function log(webhookId: string, at: number, statusCode: number, body = "upstream exploded"): WebhookLog {
  return webhookLog(webhookId, at, statusCode, body, { id: uuid(), messageId: uuid() });
}

/** `count` attempts one second apart ending at `at`, newest first as the hub lists them. */
function attempts(webhookId: string, at: number, count: number, statusCode: number): WebhookLog[] {
  return Array.from({ length: count }, (_, i) => log(webhookId, at - i * SECOND, statusCode));
}

interface Delivery {
  destination: string;
  key: string;
  kind: string;
  message: AlertMessage;
}

beforeEach(() => stubEnv({ SESSION_SECRET: "a-session-secret-for-tests-32-chars!" }));
afterEach(() => restoreEnv());

describe.each(WATCH_DATABASES)("alert incidents on %s", (kind) => {
  let ctx: StoreContext;
  let appId: string;

  async function watch(ids: string[], at = T0) {
    await addWatches(
      ctx,
      appId,
      KEY,
      ids.map((id) => ({ webhook: webhook(id), name: `Customer ${id.slice(-4)}` })),
      at,
    );
  }

  async function addDestinations() {
    await addDestination(
      ctx,
      appId,
      { kind: "slack", label: "Ops Slack", url: "https://hooks.slack.example/a" },
      T0,
    );
    await addDestination(
      ctx,
      appId,
      { kind: "webhook", label: "Pager", url: "https://pager.example/hook", secret: "" },
      T0,
    );
  }

  beforeEach(async () => {
    ctx = await databases.fresh(kind, { bodyCapBytes: 4096 });
    appId = applicationId(KEY);
    await addDestinations();
    // Each rule is tried alone; "one alert for rules tripping together" has its own test.
    await saveAppRules(ctx, appId, STREAK_ONLY);
  });

  /** Stores a webhook's logs as a poll does, without judging its rules. */
  async function stored(webhookId: string, logs: WebhookLog[], at: number) {
    await claimDue(ctx, "test", 1000, MINUTE, at);
    await writeLogs(ctx, "test", webhookId, logs, { head_id: logs[0]!.id }, MINUTE, at);
    await finishPoll(ctx, "test", webhookId, { nextPollAt: at, error: null }, at);
  }

  /** A poll of a webhook already claimed (a round claims them all at once), then its rules judged. */
  async function polled(
    webhookId: string,
    at: number,
    options: { logs?: WebhookLog[]; error?: string } = {},
  ) {
    if (options.logs?.length) {
      await writeLogs(ctx, "test", webhookId, options.logs, { head_id: options.logs[0]!.id }, MINUTE, at);
    }
    const error = options.error ? { code: options.error, message: "The hub did not answer." } : null;
    await finishPoll(ctx, "test", webhookId, { nextPollAt: at, error }, at);
    await evaluateWebhook(ctx, SETTINGS.links, appId, webhookId, at);
  }

  /** One poll of a webhook as the watcher makes it, at `at`, then its rules judged. */
  async function poll(
    webhookId: string,
    at: number,
    options: { logs?: WebhookLog[]; webhook?: Partial<Webhook>; error?: string } = {},
  ) {
    await claimDue(ctx, "test", 1000, MINUTE, at);
    if (options.webhook) await recordWebhook(ctx, "test", webhook(webhookId, options.webhook), MINUTE, at);
    await polled(webhookId, at, options);
  }

  const pass = (at: number, on: StoreContext = ctx) => alertPass(on, SETTINGS, at);

  async function deliveries(): Promise<Delivery[]> {
    const rows = await ctx.db
      .selectFrom("alert_deliveries")
      .select(["destination_label", "idempotency_key", "alert_kind", "payload", "created_at"])
      .orderBy("created_at")
      .orderBy("destination_label")
      .execute();
    return rows.map((row) => ({
      destination: row.destination_label,
      key: row.idempotency_key,
      kind: row.alert_kind,
      message: JSON.parse(row.payload!) as AlertMessage,
    }));
  }

  /** "firing streak+errorsJump → Pager": the kind, what it is about (its conditions, else its scope), where. */
  const kinds = async () =>
    (await deliveries()).map((d) => {
      const about = d.message.conditions.map((c) => c.rule.id).join("+") || d.message.incident?.scope;
      return `${d.kind} ${about} → ${d.destination}`;
    });

  const isSummary = (d: Delivery) => d.message.incident?.scope === "summary";

  const incidents = () =>
    ctx.db.selectFrom("alert_incidents").selectAll().orderBy("opened_at").orderBy("scope").execute();

  /** The firing incident's conditions, by rule. */
  const conditionsOf = (row: { detail: string }) => parseDetail(row.detail).conditions.map((c) => c.rule);

  it("a failing streak alerts once over many polls, then its recovery once the webhook delivers 3 times in a row", async () => {
    const id = uuid();
    await watch([id]);
    let at = T0 + MINUTE;
    await poll(id, at, { logs: attempts(id, at, 5, 500) });
    await pass(at);
    expect(await deliveries()).toEqual([]); // waits a settle time for others firing with it
    await pass(at + SETTLE);
    const fired = await deliveries();
    expect(fired.map((d) => d.destination)).toEqual(["Ops Slack", "Pager"]);
    const [incident] = await incidents();
    expect(fired.map((d) => d.key)).toEqual([`${incident!.id}.firing`, `${incident!.id}.firing`]);
    expect(fired[0]!.message).toMatchObject({
      version: 2,
      kind: "firing",
      incident: { id: incident!.id, scope: "webhook" },
      conditions: [{ rule: { id: "streak" }, headline: "5 failures in a row" }],
      webhook: { id, name: `Customer ${id.slice(-4)}` },
      headline: "5 failures in a row",
      codes: [{ code: 500, count: 5 }],
      since: new Date(at - 4 * SECOND).toISOString(),
      likelyCause: statusMeaning(500).cause,
      customerFix: statusMeaning(500).nextStep,
      links: { webhook: `https://console.example/webhooks/${id}?app=${appId}` },
    });
    expect(fired[0]!.message.samples).toHaveLength(3);

    // Thirty more failures over 40 minutes: still the one incident, no second alert.
    for (let i = 0; i < 10; i++) {
      at += 4 * MINUTE;
      await poll(id, at, { logs: attempts(id, at, 3, 503) });
      await pass(at);
    }
    expect(await incidents()).toHaveLength(1);
    expect(await deliveries()).toHaveLength(2);
    expect(parseDetail((await incidents())[0]!.detail).conditions[0]!.failures).toBe(35);

    // One success ends the streak, not the incident: a failure issue needs 3 in a row too.
    at += 2 * MINUTE;
    await poll(id, at, { logs: [log(id, at, 200)] });
    await pass(at);
    expect((await incidents())[0]!.state).toBe("firing");
    at += 10 * SECOND;
    await poll(id, at, { logs: attempts(id, at, 2, 200) });
    expect((await incidents())[0]).toMatchObject({ state: "resolved", resolved_at: at });
    const resolved = (await deliveries()).slice(2);
    expect(resolved.map((d) => [d.kind, d.key])).toEqual([
      ["recovered", `${incident!.id}.recovered`],
      ["recovered", `${incident!.id}.recovered`],
    ]);
    // From the first failure (T0 + 1 min - 4 s) to now (T0 + 43 min 10 s): 42 whole minutes.
    expect(resolved[0]!.message.headline).toBe(
      "recovered after 35 failures, 42 minutes (35 failures in a row)",
    );
    expect(resolved[0]!.message.incident!.id).toBe(incident!.id);
    expect(parseDetail((await incidents())[0]!.detail).recovery).toBe(
      "recovered after 35 failures, 42 minutes",
    );

    // More successes and passes change nothing.
    await poll(id, at + MINUTE, { logs: [log(id, at + MINUTE, 200)] });
    await pass(at + MINUTE);
    expect(await deliveries()).toHaveLength(4);
  });

  it("the failure rate fires over its window without a streak, and clears as the window moves on", async () => {
    const id = uuid();
    await watch([id]);
    await saveAppRules(ctx, appId, { ...DEFAULT_RULES, streak: { enabled: false, min: 5 } });
    const at = T0 + 10 * MINUTE;
    // Six failures and four successes alternating: never five in a row, 60 % failed.
    const logs = Array.from({ length: 10 }, (_, i) =>
      log(id, at - i * MINUTE, i % 5 === 1 || i % 5 === 3 ? 200 : 502),
    );
    await poll(id, at, { logs });
    await pass(at + SETTLE);
    expect(await kinds()).toEqual(["firing rate → Ops Slack", "firing rate → Pager"]);
    expect((await deliveries())[0]!.message).toMatchObject({
      headline: "60 % of 10 attempts failed in the last 15 minutes",
      counts: { failures: 6, attempts: 10 },
      likelyCause: statusMeaning(502).cause,
    });
    // Sixteen minutes on, with five successes since: the failures left the window.
    const later = at + 16 * MINUTE;
    await poll(id, later, { logs: attempts(id, later, 5, 200) });
    expect((await incidents())[0]!.state).toBe("resolved");
    expect((await deliveries())[2]!.message.headline).toMatch(/^recovered after 6 failures, 2\d minutes/);
  });

  it("an inactive webhook fires, and recovers when turned on again", async () => {
    const id = uuid();
    await watch([id]);
    await poll(id, T0 + MINUTE, { webhook: { active: false } });
    await pass(T0 + MINUTE + SETTLE);
    expect(await kinds()).toEqual(["firing inactive → Ops Slack", "firing inactive → Pager"]);
    await poll(id, T0 + 31 * MINUTE, { webhook: { active: true } });
    expect(await kinds()).toHaveLength(4);
    expect((await deliveries())[3]!.message.headline).toMatch(/^recovered after 30 minutes/);
  });

  it("a numberOfErrors jump fires, and clears when the window holds no such jump", async () => {
    const id = uuid();
    await watch([id]);
    await saveAppRules(ctx, appId, { ...DEFAULT_RULES, streak: { enabled: false, min: 5 } });
    await poll(id, T0 + MINUTE, { webhook: { numberOfErrors: 3 } });
    await poll(id, T0 + 2 * MINUTE, { webhook: { numberOfErrors: 12 } });
    expect(await incidents()).toEqual([]); // a rise of 9 is under 10
    await poll(id, T0 + 3 * MINUTE, { webhook: { numberOfErrors: 14 } });
    await pass(T0 + 3 * MINUTE + SETTLE);
    expect((await deliveries()).map((d) => d.message.headline)).toEqual([
      "numberOfErrors rose by 11 (3 → 14) in 15 minutes",
      "numberOfErrors rose by 11 (3 → 14) in 15 minutes",
    ]);
    // Since when the count began to rise (3 → 12 at 2 min), not the start of the window.
    expect((await deliveries())[0]!.message.since).toBe(new Date(T0 + 2 * MINUTE).toISOString());
    await poll(id, T0 + 16 * MINUTE, { webhook: { numberOfErrors: 14 } });
    expect((await incidents())[0]!.state).toBe("firing"); // the window starts at 1 min: 3 → 14
    await poll(id, T0 + 17 * MINUTE, { webhook: { numberOfErrors: 14 } }); // from 2 min: 12 → 14
    expect((await incidents())[0]!.state).toBe("resolved");
    expect(await kinds()).toEqual([
      "firing errorsJump → Ops Slack",
      "firing errorsJump → Pager",
      "recovered errorsJump → Ops Slack",
      "recovered errorsJump → Pager",
    ]);
  });

  it("silence fires only where asked for, and clears with the next delivery", async () => {
    const quiet = uuid();
    const asked = uuid();
    await watch([quiet, asked]);
    await saveWebhookOverride(ctx, appId, asked, {
      ...NO_OVERRIDE,
      rules: { silence: { enabled: true, minutes: 30 } },
    });
    const at = T0 + 31 * MINUTE;
    await poll(quiet, at);
    await poll(asked, at);
    await pass(at + SETTLE);
    expect((await deliveries()).map((d) => [d.message.webhook?.id, d.message.headline])).toEqual([
      [asked, "no delivery since the watch began, 31 minutes ago"],
      [asked, "no delivery since the watch began, 31 minutes ago"],
    ]);
    await poll(asked, at + MINUTE, { logs: [log(asked, at + MINUTE, 200)] });
    expect(await kinds()).toEqual([
      "firing silence → Ops Slack",
      "firing silence → Pager",
      "recovered silence → Ops Slack",
      "recovered silence → Pager",
    ]);
  });

  it("polls failing in a row add 'cannot read' to the webhook's incident; the other conditions stay as they were until a poll answers", async () => {
    const id = uuid();
    await watch([id]);
    await poll(id, T0 + MINUTE, { logs: attempts(id, T0 + MINUTE, 6, 500) });
    await poll(id, T0 + 2 * MINUTE, { error: "upstream_unavailable" });
    expect((await incidents()).map((i) => [conditionsOf(i), i.state])).toEqual([[["streak"], "firing"]]);
    await poll(id, T0 + 3 * MINUTE, { error: "upstream_unavailable" });
    expect((await incidents()).map((i) => [conditionsOf(i), i.state])).toEqual([
      [["streak", "watchUnreadable"], "firing"],
    ]);
    await pass(T0 + 3 * MINUTE + SETTLE);
    expect(await kinds()).toEqual([
      "firing streak+watchUnreadable → Ops Slack",
      "firing streak+watchUnreadable → Pager",
    ]);
    const [told] = await deliveries();
    expect(told!.message.conditions[1]!.headline).toBe(
      "the watch cannot read the webhook: 2 polls in a row failed (upstream_unavailable)",
    );
    // The poll answers with one success: it can read again, the streak holds until it delivers again.
    await poll(id, T0 + 5 * MINUTE, { logs: [log(id, T0 + 5 * MINUTE, 200)] });
    expect((await incidents()).map((i) => [conditionsOf(i), i.state])).toEqual([[["streak"], "firing"]]);
    await poll(id, T0 + 6 * MINUTE, { logs: attempts(id, T0 + 6 * MINUTE, 2, 200) });
    expect((await incidents()).map((i) => i.state)).toEqual(["resolved"]);
    expect((await kinds()).slice(2)).toEqual(["recovered streak → Ops Slack", "recovered streak → Pager"]);
  });

  it("a rejected key fires one application-wide alert, resolved when the key is accepted again", async () => {
    const ids = [uuid(), uuid(), uuid()];
    await watch(ids);
    await markKeyRejected(ctx, appId, "401 from the hub", T0 + MINUTE);
    await pass(T0 + MINUTE);
    await pass(T0 + MINUTE + SETTLE);
    await pass(T0 + 2 * MINUTE);
    expect(await kinds()).toEqual(["firing watchUnreadable → Ops Slack", "firing watchUnreadable → Pager"]);
    expect((await deliveries())[0]!.message).toMatchObject({
      incident: { scope: "application" },
      webhook: null,
      since: new Date(T0 + MINUTE).toISOString(),
    });
    await watch(ids, T0 + 20 * MINUTE); // signing in again stores the key afresh
    await pass(T0 + 20 * MINUTE);
    expect((await deliveries())[2]!.message.headline).toMatch(/^recovered after 19 minutes/);
  });

  it("cooldown: the webhook failing again soon after its incident resolved is recorded but told only if it outlasts the cooldown", async () => {
    const id = uuid();
    await watch([id]);
    let at = T0 + MINUTE;
    await poll(id, at, { logs: attempts(id, at, 5, 500) });
    await pass(at + SETTLE);
    at += 2 * MINUTE;
    await poll(id, at, { logs: attempts(id, at, 3, 200) });
    expect(await deliveries()).toHaveLength(4); // fired and resolved, both told

    // Fails again 5 minutes after resolving (the cooldown is 30): recorded, held, not told.
    const resolvedAt = at;
    at += 5 * MINUTE;
    await poll(id, at, { logs: attempts(id, at, 5, 500) });
    await pass(at + SETTLE);
    const second = (await incidents())[1]!;
    expect(second.state).toBe("firing");
    expect(second.notified_at).toBeNull();
    expect(parseDetail(second.detail).held).toBe(
      `Held until ${new Date(resolvedAt + 30 * MINUTE).toISOString()}: ` +
        "this webhook's last incident resolved less than a cooldown ago. Sent then if still firing.",
    );
    // It resolves within the cooldown: nothing told, neither firing nor recovery.
    at += 2 * MINUTE;
    await poll(id, at, { logs: attempts(id, at, 3, 200) });
    await pass(at);
    expect(await deliveries()).toHaveLength(4);

    // A third time, still within the cooldown, and it keeps failing past its end: told then, once.
    at += MINUTE;
    await poll(id, at, { logs: attempts(id, at, 5, 500) });
    await pass(at + SETTLE);
    expect(await deliveries()).toHaveLength(4);
    await pass(resolvedAt + 30 * MINUTE);
    await pass(resolvedAt + 31 * MINUTE);
    expect((await kinds()).slice(4)).toEqual(["firing streak → Ops Slack", "firing streak → Pager"]);
  });

  it("quiet hours hold an alert until they end, then send it if still firing", async () => {
    const id = uuid();
    await watch([id]);
    // T0 is 10:00 UTC: quiet from 09:30 to 10:30 UTC.
    await saveWebhookOverride(ctx, appId, id, {
      ...NO_OVERRIDE,
      quietHours: { start: "09:30", end: "10:30", zone: "UTC" },
    });
    const at = T0 + MINUTE;
    await poll(id, at, { logs: attempts(id, at, 5, 500) });
    await pass(at + SETTLE);
    await pass(T0 + 29 * MINUTE);
    expect(await deliveries()).toEqual([]);
    expect(parseDetail((await incidents())[0]!.detail).held).toMatch(
      /^Held until 2026-11-25T10:30:00.000Z: it is within/,
    );
    await pass(T0 + 30 * MINUTE);
    expect(await kinds()).toEqual(["firing streak → Ops Slack", "firing streak → Pager"]);
    expect(parseDetail((await incidents())[0]!.detail).held).toBeNull();
  });

  it("a snoozed webhook's incident that resolves before the snooze ends sends nothing at all", async () => {
    const id = uuid();
    await watch([id]);
    await saveWebhookOverride(ctx, appId, id, {
      ...NO_OVERRIDE,
      snoozedUntil: new Date(T0 + 60 * MINUTE).toISOString(),
    });
    let at = T0 + MINUTE;
    await poll(id, at, { logs: attempts(id, at, 5, 500) });
    await pass(at + SETTLE);
    at += 10 * MINUTE;
    await poll(id, at, { logs: attempts(id, at, 3, 200) });
    await pass(T0 + 61 * MINUTE);
    expect(await deliveries()).toEqual([]);
    expect((await incidents())[0]).toMatchObject({ state: "resolved", notified_at: null });
  });

  it("a streak, a rate and a numberOfErrors jump tripping together are one incident: one alert listing the three", async () => {
    const id = uuid();
    await watch([id]);
    await saveAppRules(ctx, appId, DEFAULT_RULES);
    let at = T0 + MINUTE;
    await poll(id, at, { webhook: { numberOfErrors: 0 } });
    at += MINUTE;
    await poll(id, at, { logs: attempts(id, at, 12, 500), webhook: { numberOfErrors: 12 } });
    await pass(at + SETTLE);
    await pass(at + 2 * SETTLE);
    const rows = await incidents();
    expect(rows.map((i) => [i.scope, conditionsOf(i)])).toEqual([
      ["webhook", ["streak", "rate", "errorsJump"]],
    ]);
    expect(await kinds()).toEqual([
      "firing streak+rate+errorsJump → Ops Slack",
      "firing streak+rate+errorsJump → Pager",
    ]);
    expect((await deliveries())[0]!.message.headline).toBe(
      "12 failures in a row; 100 % of 12 attempts failed in the last 15 minutes; " +
        "numberOfErrors rose by 12 (0 → 12) in 15 minutes",
    );
  });

  it("recovers as soon as it delivers 3 times in a row, though its failure rate over the window still holds, and stays recovered", async () => {
    const id = uuid();
    await watch([id]);
    await saveAppRules(ctx, appId, DEFAULT_RULES);
    const failing = T0 + MINUTE;
    await poll(id, failing, { logs: attempts(id, failing, 12, 500) });
    await pass(failing + SETTLE);
    expect(await kinds()).toEqual(["firing streak+rate → Ops Slack", "firing streak+rate → Pager"]);
    // The endpoint is fixed: 12 successes in a row, one poll later. 12 of 24 failed: the rate still holds.
    const fixed = failing + MINUTE;
    await poll(id, fixed, { logs: attempts(id, fixed, 12, 200) });
    expect((await incidents()).map((i) => i.state)).toEqual(["resolved"]);
    expect((await kinds()).slice(2)).toEqual([
      "recovered streak+rate → Ops Slack",
      "recovered streak+rate → Pager",
    ]);
    expect((await deliveries())[2]!.message.headline).toMatch(/^recovered after 12 failures, 1 minute \(/);
    // Later polls within the window open nothing again while it delivers.
    for (const later of [fixed + MINUTE, fixed + 2 * MINUTE]) {
      await poll(id, later, { logs: attempts(id, later, 2, 200) });
      await pass(later + SETTLE);
    }
    expect(await incidents()).toHaveLength(1);
    expect(await deliveries()).toHaveLength(4);
  });

  it.each([1, 3, 5])(
    "recovers after WATCH_ISSUE_RESOLVE_AFTER (%i) successes in a row, not one fewer",
    async (resolveAfter) => {
      ctx = await databases.fresh(kind, { bodyCapBytes: 4096, issueResolveAfter: resolveAfter });
      await addDestinations();
      await saveAppRules(ctx, appId, DEFAULT_RULES);
      const id = uuid();
      await watch([id]);
      let at = T0 + MINUTE;
      await poll(id, at, { logs: attempts(id, at, 12, 500) });
      await pass(at + SETTLE);
      for (let successes = 1; successes <= resolveAfter; successes++) {
        at += SETTLE + SECOND;
        await poll(id, at, { logs: [log(id, at, 200)] });
        const { state } = (await incidents())[0]!;
        expect([successes, state]).toEqual([successes, successes < resolveAfter ? "firing" : "resolved"]);
      }
      expect((await kinds()).slice(2)).toEqual([
        "recovered streak+rate → Ops Slack",
        "recovered streak+rate → Pager",
      ]);
    },
  );

  it("a condition that changes updates the incident without a new alert; told again only when it gets worse, each update once under its own key", async () => {
    const id = uuid();
    await watch([id]);
    await saveAppRules(ctx, appId, DEFAULT_RULES);
    let at = T0 + MINUTE;
    await poll(id, at, { logs: attempts(id, at, 5, 500) });
    await pass(at + SETTLE);
    const [incident] = await incidents();
    expect(await kinds()).toEqual(["firing streak → Ops Slack", "firing streak → Pager"]);

    // More failures: the rate joins (it was not told) — worse. The counts grow — not news.
    at += MINUTE;
    await poll(id, at, { logs: attempts(id, at, 6, 500) });
    expect(conditionsOf((await incidents())[0]!)).toEqual(["streak", "rate"]);
    expect((await incidents())[0]!.update_due).toBe(at);
    await pass(at);
    expect(await deliveries()).toHaveLength(2); // an update waits a settle time too
    await pass(at + SETTLE);
    expect(await kinds()).toEqual([
      "firing streak → Ops Slack",
      "firing streak → Pager",
      "updated streak+rate → Ops Slack",
      "updated streak+rate → Pager",
    ]);
    const [update] = (await deliveries()).slice(2);
    expect(update!.key).toBe(`${incident!.id}.updated.1`);
    expect(update!.message).toMatchObject({
      incident: { id: incident!.id },
      headline: expect.stringMatching(/^11 failures in a row; /),
    });
    for (let i = 0; i < 5; i++) {
      at += MINUTE;
      await poll(id, at, { logs: attempts(id, at, 5, 500) }); // 16 … 36 in a row: counts only
      await pass(at + SETTLE);
    }
    expect(await deliveries()).toHaveLength(4);
    expect(parseDetail((await incidents())[0]!.detail).conditions[0]!.headline).toBe("36 failures in a row");

    // Snoozed: a worse change waits for the snooze to end; the streak reaching 50 (10 × 5) is worse.
    await saveWebhookOverride(ctx, appId, id, {
      ...NO_OVERRIDE,
      snoozedUntil: new Date(at + 30 * MINUTE).toISOString(),
    });
    at += MINUTE;
    await poll(id, at, { logs: attempts(id, at, 14, 500) });
    await pass(at + SETTLE);
    expect(await deliveries()).toHaveLength(4);
    await pass(at + 30 * MINUTE);
    expect((await kinds()).slice(4)).toEqual([
      "updated streak+rate → Ops Slack",
      "updated streak+rate → Pager",
    ]);
    expect((await deliveries())[4]!.key).toBe(`${incident!.id}.updated.2`);
    expect((await deliveries())[4]!.message.headline).toMatch(/^50 failures in a row; /);
    await pass(at + 31 * MINUTE);
    expect(await deliveries()).toHaveLength(6);
    expect(await incidents()).toHaveLength(1);
  });

  it("a disabled rule's condition does not join the incident", async () => {
    const id = uuid();
    await watch([id]);
    await saveAppRules(ctx, appId, { ...DEFAULT_RULES, rate: { ...DEFAULT_RULES.rate, enabled: false } });
    const at = T0 + MINUTE;
    await poll(id, at, { logs: attempts(id, at, 12, 500) });
    expect((await incidents()).map(conditionsOf)).toEqual([["streak"]]);
    // Turned off for this webhook: its streak leaves, and with it the incident.
    await saveWebhookOverride(ctx, appId, id, {
      ...NO_OVERRIDE,
      rules: { streak: { enabled: false, min: 5 } },
    });
    await poll(id, at + MINUTE, { logs: attempts(id, at + MINUTE, 2, 500) });
    expect((await incidents()).map((i) => i.state)).toEqual(["resolved"]);
  });

  it("alerts name the application as its people do, else by the webhooks it watches", async () => {
    const id = uuid();
    await watch([id]);
    const at = T0 + MINUTE;
    await poll(id, at, { logs: attempts(id, at, 5, 500) });
    await pass(at + SETTLE);
    expect((await deliveries())[0]!.message.application).toEqual({
      id: appId,
      name: `The application watching "Customer ${id.slice(-4)}"`,
    });
    await rememberApplicationNames(ctx, new Map([[appId, "Default"]]), at);
    await rememberApplicationNames(ctx, new Map([[appId, "Payments"]]), at + SECOND); // renamed
    await poll(id, at + MINUTE, { logs: attempts(id, at + MINUTE, 3, 200) });
    expect((await deliveries())[2]!.message.application).toEqual({ id: appId, name: "Payments" });
  });

  it("alerts held for a while (a cooldown) do not make a webhook failing later part of a summary", async () => {
    const held = [uuid(), uuid(), uuid(), uuid()];
    await watch(held);
    for (const id of held) await poll(id, T0 + MINUTE, { logs: attempts(id, T0 + MINUTE, 5, 500) });
    await pass(T0 + MINUTE + SETTLE);
    for (const id of held) await poll(id, T0 + 3 * MINUTE, { logs: attempts(id, T0 + 3 * MINUTE, 3, 200) });
    // They fail again within the cooldown: recorded, held until T0 + 33 min.
    for (const id of held) await poll(id, T0 + 5 * MINUTE, { logs: attempts(id, T0 + 5 * MINUTE, 5, 500) });
    await pass(T0 + 5 * MINUTE + SETTLE);
    expect(await deliveries()).toHaveLength(16);

    const lone = uuid();
    await watch([lone]);
    const at = T0 + 20 * MINUTE;
    await poll(lone, at, { logs: attempts(lone, at, 5, 500) });
    await pass(at);
    await pass(at + SETTLE);
    expect((await kinds()).slice(16)).toEqual(["firing streak → Ops Slack", "firing streak → Pager"]);
  });

  it("a summary gives each webhook's latest failure code; a webhook failing while it lasts is added to it: one update naming it, never lost", async () => {
    const ids = [uuid(), uuid(), uuid(), uuid(), uuid()];
    await watch(ids);
    const at = T0 + MINUTE;
    // The first fails with 503 five times, then 500: its last code is 500, its most frequent 503.
    const [first] = ids;
    await poll(first!, at, { logs: [log(first!, at, 500), ...attempts(first!, at - SECOND, 5, 503)] });
    for (const id of ids.slice(1)) await poll(id, at, { logs: attempts(id, at, 6, 503) });
    await pass(at);
    await pass(at + SETTLE);
    expect(await kinds()).toEqual(["firing summary → Ops Slack", "firing summary → Pager"]);
    const [summary] = await deliveries();
    expect(summary!.message.webhooks.find((w) => w.webhook.id === first)!.lastStatusCode).toBe(500);
    const summaryId = summary!.message.incident!.id;

    // Ten minutes on, well after the burst, another webhook starts failing.
    const joining = uuid();
    await watch([joining]);
    const later = at + 10 * MINUTE;
    await poll(joining, later, { logs: attempts(joining, later, 5, 502) });
    for (let t = later; t <= later + 2 * MINUTE; t += SETTLE) await pass(t);
    expect((await incidents()).find((i) => i.webhook_id === joining)!.summary_id).toBe(summaryId);
    const update = (await deliveries()).slice(2);
    expect(update.map((d) => [d.kind, d.key, d.message.incident!.id])).toEqual([
      ["updated", `${summaryId}.updated.1`, summaryId],
      ["updated", `${summaryId}.updated.1`, summaryId],
    ]);
    expect(update[0]!.message.headline).toBe("6 webhooks failing at once");
    expect(update[0]!.message.added.map((w) => w.webhook.id)).toEqual([joining]);
    expect(update[0]!.message.webhooks).toHaveLength(6);
    expect(await deliveries()).toHaveLength(4);
  });

  it("the hub failing under a summary of failing endpoints is told as an update naming the hub, and its return too", async () => {
    const ids = [uuid(), uuid(), uuid(), uuid(), uuid()];
    const healthy = uuid();
    await watch([...ids, healthy]);
    const at = T0 + MINUTE;
    await poll(healthy, at, { logs: [log(healthy, at, 200)] });
    for (const id of ids) await poll(id, at, { logs: attempts(id, at, 6, 503) });
    await pass(at);
    await pass(at + SETTLE);
    expect((await deliveries()).map((d) => d.message.headline)).toEqual([
      "5 webhooks failing at once",
      "5 webhooks failing at once",
    ]);
    // Every poll fails from now on: the watch cannot read any of the six.
    for (const round of [1, 2]) {
      for (const id of [...ids, healthy])
        await poll(id, at + round * MINUTE, { error: "upstream_unavailable" });
    }
    for (let t = at + 2 * MINUTE; t <= at + 3 * MINUTE; t += SETTLE) await pass(t);
    const update = (await deliveries()).slice(2);
    expect(update.map((d) => d.kind)).toEqual(["updated", "updated"]);
    expect(update[0]!.message.headline).toBe("the watch cannot read 6 webhooks: the hub is failing");
    expect(update[0]!.message.likelyCause).toMatch(/hub is failing or unreachable/);

    // The hub reads again; the five endpoints still fail: an update says so, once.
    const back = at + 4 * MINUTE;
    await poll(healthy, back, { logs: [log(healthy, back, 200)] });
    for (const id of ids) await poll(id, back, { logs: attempts(id, back, 2, 503) });
    for (let t = back; t <= back + 2 * MINUTE; t += SETTLE) await pass(t);
    const after = (await deliveries()).slice(4);
    expect(after.map((d) => [d.kind, d.message.headline])).toEqual([
      ["updated", "5 webhooks failing at once"],
      ["updated", "5 webhooks failing at once"],
    ]);
    expect(after[0]!.message.likelyCause).not.toMatch(/hub is failing/);
    expect(new Set((await deliveries()).map((d) => d.message.incident!.id)).size).toBe(1);
  });

  it("four webhooks failing at once are told one by one; five are told in one summary", async () => {
    const few = [uuid(), uuid(), uuid(), uuid()];
    await watch(few);
    const at = T0 + MINUTE;
    for (const id of few) await poll(id, at, { logs: attempts(id, at, 5, 500) });
    await pass(at + SETTLE);
    const alone = async () => (await deliveries()).filter((d) => !isSummary(d));
    expect(await alone()).toHaveLength(8);

    const many = [uuid(), uuid(), uuid(), uuid(), uuid()];
    await watch(many);
    const later = T0 + 10 * MINUTE;
    for (const id of many) await poll(id, later, { logs: attempts(id, later, 6, 503) });
    await pass(later);
    const summaries = (await deliveries()).filter(isSummary);
    expect(summaries).toEqual([]); // a summary waits a settle time for more to join
    await pass(later + SETTLE);
    const [summary] = (await deliveries()).filter(isSummary);
    // It lists every webhook failing when it is sent: the five, and the four told before.
    expect(summary!.message.webhooks.map((w) => w.webhook.id).sort()).toEqual([...few, ...many].sort());
    expect(summary!.message.headline).toBe("9 webhooks failing at once");
    expect(await alone()).toHaveLength(8);
  });

  /** Five webhooks failing at once from `at`, told in one summary; they go on failing. */
  async function burst(at: number): Promise<string[]> {
    const ids = [uuid(), uuid(), uuid(), uuid(), uuid()];
    await watch(ids);
    for (const id of ids) await poll(id, at, { logs: attempts(id, at, 6, 503) });
    await pass(at);
    await pass(at + SETTLE);
    return ids;
  }

  const summaryRow = async () => (await incidents()).find((i) => i.scope === "summary")!;

  it("a webhook failing after a burst is added to its summary: one update to every destination, those added since too; it recovers with it", async () => {
    const chronic = await burst(T0 + MINUTE);
    expect(await kinds()).toEqual(["firing summary → Ops Slack", "firing summary → Pager"]);
    await addDestination(
      ctx,
      appId,
      { kind: "webhook", label: "Added later", url: "https://later.example/hook", secret: "" },
      T0 + 2 * MINUTE,
    );

    const late = uuid();
    await watch([late]);
    const at = T0 + 10 * MINUTE;
    await poll(late, at, { logs: attempts(late, at, 6, 500) });
    await pass(at);
    expect((await kinds()).slice(2)).toEqual([]); // it joined: the update waits a settle time for more
    await pass(at + SETTLE);
    expect((await kinds()).slice(2)).toEqual([
      "updated summary → Added later",
      "updated summary → Ops Slack",
      "updated summary → Pager",
    ]);
    expect((await deliveries())[2]!.message.added.map((w) => w.webhook.id)).toEqual([late]);
    const [summary, lateIncident] = [await summaryRow(), (await incidents()).at(-1)!];
    expect(summary.state).toBe("firing");
    expect(lateIncident).toMatchObject({ webhook_id: late, summary_id: summary.id });
    expect(parseDetail(summary.detail).conditions[0]!.headline).toBe("6 webhooks failing at once");

    // It recovers without a notice of its own; the summary's webhooks go on failing.
    const back = at + 2 * MINUTE;
    await poll(late, back, { logs: attempts(late, back, 3, 200) });
    await pass(back);
    expect(await deliveries()).toHaveLength(5);

    // One of the first five recovers: the headline counts the four still failing, told to nobody.
    await poll(chronic[0]!, back, { logs: attempts(chronic[0]!, back, 3, 200) });
    await pass(back);
    expect((await summaryRow()).state).toBe("firing");
    expect(parseDetail((await summaryRow()).detail).conditions[0]!.headline).toBe(
      "4 webhooks failing at once",
    );
    expect(await deliveries()).toHaveLength(5);

    // The rest recover: one notice, naming the six that were in it.
    for (const id of chronic.slice(1))
      await poll(id, back + MINUTE, { logs: attempts(id, back + MINUTE, 3, 200) });
    await pass(back + MINUTE);
    expect((await kinds()).slice(5)).toEqual([
      "recovered summary → Added later",
      "recovered summary → Ops Slack",
      "recovered summary → Pager",
    ]);
    expect((await deliveries())[5]!.message.webhooks).toHaveLength(6);
  });

  it("a second burst while a summary is open joins it, told as an update naming every webhook failing in it", async () => {
    const first = await burst(T0 + MINUTE);
    const second = await burst(T0 + 30 * MINUTE);
    const summaries = await deliveries();
    expect(summaries.map((d) => d.destination)).toEqual(["Ops Slack", "Pager", "Ops Slack", "Pager"]);
    const update = summaries[2]!;
    expect([update.kind, update.key]).toEqual(["updated", `${summaries[0]!.message.incident!.id}.updated.1`]);
    expect(update.message.headline).toBe("10 webhooks failing at once");
    expect(update.message.added.map((w) => w.webhook.id).sort()).toEqual([...second].sort());
    expect(update.message.webhooks.map((w) => w.webhook.id).sort()).toEqual([...first, ...second].sort());
    expect((await deliveries()).filter((d) => !isSummary(d))).toEqual([]);
    expect(parseDetail((await summaryRow()).detail).conditions[0]!.headline).toBe(
      "10 webhooks failing at once",
    );

    // Passes with nothing new send nothing more.
    for (let at = T0 + 31 * MINUTE; at < T0 + 40 * MINUTE; at += MINUTE) await pass(at);
    expect(await deliveries()).toHaveLength(4);
  });

  // 200 on SQLite; on PostgreSQL (the same queries, each a round trip) 40 keep the file's time in bounds.
  const outage = kind === "sqlite" ? 200 : 40;
  it(`${outage} webhooks failing at once from a hub outage: one summary per destination per cooldown, with each webhook inside`, async () => {
    const ids = Array.from({ length: outage }, () => uuid());
    await watch(ids);
    const start = T0 + MINUTE;
    /** Every webhook polled once, one after another as a watcher would, with alert passes running meanwhile. */
    const pollRound = async (
      from: number,
      options: (id: string, at: number) => Parameters<typeof poll>[2],
    ) => {
      await claimDue(ctx, "test", 1000, 10 * MINUTE, from);
      let lastPass = from;
      for (const [i, id] of ids.entries()) {
        const at = from + i * 300;
        await polled(id, at, options(id, at));
        if (at - lastPass >= 2 * SECOND) await pass((lastPass = at));
      }
    };
    const passes = async (from: number, to: number, every = 2 * SECOND) => {
      for (let at = from; at <= to; at += every) await pass(at);
    };
    const hubDown = () => ({ error: "upstream_unavailable" });
    await pollRound(start, (id, at) => ({ logs: [log(id, at, 200)] }));
    // The hub fails: every poll fails, two rounds make the watch unable to read each webhook.
    await pollRound(start + MINUTE, hubDown);
    await pollRound(start + 2 * MINUTE, hubDown);
    await passes(start + 3 * MINUTE, start + 6 * MINUTE, 10 * SECOND);

    const told = await deliveries();
    expect(told.map((d) => `${d.kind} ${d.message.incident!.scope} → ${d.destination}`)).toEqual([
      "firing summary → Ops Slack",
      "firing summary → Pager",
    ]);
    const { message } = told[0]!;
    expect(message.headline).toBe(`the watch cannot read ${outage} webhooks: the hub is failing`);
    expect(message.webhooks).toHaveLength(outage);
    expect(new Set(message.webhooks.map((w) => w.webhook.id)).size).toBe(outage);
    expect(message.webhooks[0]).toMatchObject({
      failures: 2,
      link: expect.stringMatching(/^https:\/\/console\.example\/webhooks\//),
    });
    expect(message.likelyCause).toMatch(/hub is failing or unreachable/);

    // The hub is back: each webhook recovers, and the recovery is one summary too.
    const back = start + 10 * MINUTE;
    await pollRound(back, (id, at) => ({ logs: [log(id, at, 200)] }));
    await pass(back + MINUTE);
    expect((await kinds()).slice(2)).toEqual(["recovered summary → Ops Slack", "recovered summary → Pager"]);
    expect((await deliveries())[2]!.message.webhooks).toHaveLength(outage);
    expect((await deliveries())[2]!.message.headline).toMatch(/^recovered after \d+ minutes/);

    // A second outage within the cooldown: recorded and held, told only once the cooldown is over.
    const again = back + 5 * MINUTE;
    await pollRound(again, hubDown);
    await pollRound(again + MINUTE, hubDown);
    await passes(again + 2 * MINUTE, back + 29 * MINUTE, 2 * MINUTE);
    expect(await deliveries()).toHaveLength(4);
    await passes(back + 29 * MINUTE, back + 36 * MINUTE, 10 * SECOND);
    expect((await kinds()).slice(4)).toEqual(["firing summary → Ops Slack", "firing summary → Pager"]);
  }, 400_000);

  it("a hub outage told before every webhook's turn to be read came lists each webhook of the application", async () => {
    const ids = Array.from({ length: 12 }, () => uuid());
    await watch(ids);
    const start = T0 + MINUTE;
    await claimDue(ctx, "test", 1000, 10 * MINUTE, start);
    for (const id of ids) await polled(id, start, { logs: [log(id, start, 200)] });
    // The hub fails; the watcher has read only two webhooks twice since (slow failing polls).
    const [first, second] = ids;
    for (const round of [1, 2]) {
      for (const id of [first!, second!])
        await poll(id, start + round * MINUTE, { error: "upstream_unavailable" });
    }
    for (let at = start + 2 * MINUTE; at <= start + 6 * MINUTE; at += 10 * SECOND) await pass(at);

    const told = await deliveries();
    expect(told.map((d) => `${d.kind} ${d.message.incident!.scope} → ${d.destination}`)).toEqual([
      "firing summary → Ops Slack",
      "firing summary → Pager",
    ]);
    const { message } = told[0]!;
    expect(message.headline).toBe("the watch cannot read 2 of 12 webhooks: the hub is failing");
    expect(new Set(message.webhooks.map((w) => w.webhook.id))).toEqual(new Set(ids));
    expect(
      message.webhooks
        .slice(0, 2)
        .map((w) => [w.webhook.id, w.failures])
        .sort(),
    ).toEqual(
      [
        [first, 2],
        [second, 2],
      ].sort(),
    );
    expect(message.webhooks.slice(2).every((w) => w.failures === 0)).toBe(true);
  });

  it.runIf(kind === "postgres")(
    "two instances judging and sending at once: one incident, one row per destination",
    async () => {
      const url = await databases.freshPostgresUrl();
      const instance = () =>
        openStoreContext({ target: { kind: "postgres", url }, secrets: [TEST_SECRET], bodyCapBytes: 4096 });
      ctx = await instance();
      const second = await instance();
      try {
        await addDestinations();
        const ids = [uuid(), uuid()];
        await watch(ids);
        const both = async (at: number) => {
          await Promise.all(
            ids.flatMap((id) => [
              evaluateWebhook(ctx, SETTINGS.links, appId, id, at),
              evaluateWebhook(second, SETTINGS.links, appId, id, at),
            ]),
          );
          await Promise.all([pass(at + SETTLE), pass(at + SETTLE, second)]);
        };
        const at = T0 + MINUTE;
        for (const id of ids) await stored(id, attempts(id, at, 5, 500), at);
        for (let round = 0; round < 3; round++) await both(at);
        expect((await incidents()).map(conditionsOf)).toEqual([["streak"], ["streak"]]);
        expect((await kinds()).sort()).toEqual([
          "firing streak → Ops Slack",
          "firing streak → Ops Slack",
          "firing streak → Pager",
          "firing streak → Pager",
        ]);
        const later = at + 2 * MINUTE;
        for (const id of ids) await stored(id, attempts(id, later, 3, 200), later);
        await both(later);
        expect((await deliveries()).filter((d) => d.kind === "recovered")).toHaveLength(4);
        expect(new Set((await deliveries()).map((d) => `${d.destination} ${d.key}`)).size).toBe(8);
      } finally {
        await Promise.all([ctx.db.destroy(), second.db.destroy()]);
      }
    },
  );
});
