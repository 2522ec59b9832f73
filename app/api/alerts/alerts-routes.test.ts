/**
 * The alert routes, called directly with a real (embedded, in-memory) store and receivers on
 * loopback: adding a destination (each refusal names the field by its label and stores nothing),
 * the masked list, "Send test alert" signed and logged (answered after its first attempt, a
 * failed one retried by the dispatcher and the log showing it), removing, and a session that
 * sees and manages only its own application's destinations.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import type { DeliveryView, DestinationView } from "@/lib/domain/alerts/destinations";
import { stubEnv } from "@/tests/support/env";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { ctx, errorOf, request, signedInCookie } from "@/tests/support/route-requests";
import { startReceiver, type TestReceiver } from "@/tests/sandbox/support/receiver";
import * as destinationsRoute from "@/app/api/alerts/destinations/route";
import * as destinationRoute from "@/app/api/alerts/destinations/[destinationId]/route";
import * as testRoute from "@/app/api/alerts/destinations/[destinationId]/test/route";
import * as deliveriesRoute from "@/app/api/alerts/deliveries/route";
import { createDispatcher } from "@/lib/server/alerts/dispatch";
import { sharedStoreContext } from "@/lib/server/store/context";
import { testDispatchSettings, until } from "@/tests/support/alert-outbox";
import {
  PUBLIC_ADDRESSES,
  REFUSED_ADDRESSES,
  REFUSED_NAMES,
  urlHost,
} from "@/tests/support/private-addresses";

const OWNER = "owner-key-7f3a9c2e5b1d4e6f8a0b";
const STRANGER = "stranger-key-0a1b2c3d4e5f6071";

fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_SANDBOX: "",
  WATCH_DB: ":memory:",
  WATCH_IN_CONSOLE: "0",
});

let owner: string;
let stranger: string;
beforeEach(async () => {
  owner = await signedInCookie(OWNER);
  stranger = await signedInCookie(STRANGER);
  // Each test starts with no destination.
  for (const cookie of [owner, stranger]) {
    for (const destination of await list(cookie)) {
      await destinationRoute.DELETE(
        request("DELETE", `/api/alerts/destinations/${destination.id}`, { cookie }),
        ctx({ destinationId: destination.id }),
      );
    }
  }
});

async function list(cookie: string): Promise<DestinationView[]> {
  const response = await destinationsRoute.GET(request("GET", "/api/alerts/destinations", { cookie }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { destinations: DestinationView[] }).destinations;
}

const add = (cookie: string, body: unknown) =>
  destinationsRoute.POST(request("POST", "/api/alerts/destinations", { cookie, body }));

const sendTest = (cookie: string, destinationId: string) =>
  testRoute.POST(
    request("POST", `/api/alerts/destinations/${destinationId}/test`, { cookie }),
    ctx({ destinationId }),
  );

describe("adding a destination: each refusal names the field and stores nothing", () => {
  it.each([
    [
      "a loopback Slack URL",
      { kind: "slack", label: "Inside", url: "https://127.0.0.1/services/x" },
      "url",
      "Slack webhook URL: 127.0.0.1 is a loopback address: alerts go only to public addresses. Use the receiver's public https:// address.",
    ],
    [
      "a name for this machine",
      { kind: "webhook", label: "Inside", url: "https://localhost:8443/hook" },
      "url",
      /^Webhook URL: localhost is a name for this machine \(loopback\): alerts go only to public addresses/,
    ],
    [
      "the cloud metadata address",
      { kind: "webhook", label: "Metadata", url: "https://169.254.169.254/latest/meta-data" },
      "url",
      /^Webhook URL: 169\.254\.169\.254 is a link-local or cloud metadata address/,
    ],
    [
      "plain http",
      { kind: "slack", label: "Plain", url: "http://93.184.216.34/hook" },
      "url",
      /^Slack webhook URL: only https:\/\/ addresses are called/,
    ],
    [
      "not a URL",
      { kind: "slack", label: "Typo", url: "hooks.slack.com/services/x" },
      "url",
      "Slack webhook URL: enter a whole https:// address, e.g. https://hooks.slack.com/services/….",
    ],
    ["a blank name", { kind: "slack", label: "  ", url: "https://93.184.216.34/x" }, "label", /^Name: give/],
    [
      "an unknown kind",
      { kind: "pager", label: "x" },
      "kind",
      /^Kind: choose Slack, Signed JSON webhook, Email, PagerDuty, Microsoft Teams or Discord\.$/,
    ],
    [
      "a secret not in the Standard Webhooks form",
      { kind: "webhook", label: "Signed", url: "https://93.184.216.34/x", secret: "hunter2" },
      "secret",
      /^Signing secret: paste a secret starting with whsec_/,
    ],
    [
      "an email address when SMTP_URL is unset",
      { kind: "email", label: "Team", to: "oncall@example.com" },
      "to",
      /^Email address: this console has no SMTP_URL/,
    ],
    [
      "a bad email address",
      { kind: "email", label: "Team", to: "oncall" },
      "to",
      /^Email address: enter one address/,
    ],
    [
      "a PagerDuty routing key of the wrong shape",
      { kind: "pagerduty", label: "PD", routingKey: "hunter2-not-a-key" },
      "routingKey",
      "PagerDuty routing key: paste the 32 letters and digits of the Integration Key of an Events API v2 integration (Service → Integrations).",
    ],
    [
      "a blank PagerDuty routing key",
      { kind: "pagerduty", label: "PD", routingKey: " " },
      "routingKey",
      /^PagerDuty routing key: paste the Integration Key/,
    ],
    [
      "a PagerDuty region other than US or EU",
      { kind: "pagerduty", label: "PD", routingKey: "R0UTINGKEY0123456789abcdefABCDEF", region: "ap" },
      "region",
      "Region: choose US or EU: where the PagerDuty account lives.",
    ],
    [
      "a loopback Teams Workflows URL",
      { kind: "teams", label: "Teams", url: "https://127.0.0.1/workflows/x" },
      "url",
      /^Teams Workflows webhook URL: 127\.0\.0\.1 is a loopback address: alerts go only to public addresses/,
    ],
    [
      "plain http to Discord",
      { kind: "discord", label: "Discord", url: "http://93.184.216.34/api/webhooks/1/x" },
      "url",
      /^Discord webhook URL: only https:\/\/ addresses are called/,
    ],
    [
      "a private Discord address",
      { kind: "discord", label: "Discord", url: "https://10.1.2.3/api/webhooks/1/x" },
      "url",
      /^Discord webhook URL: 10\.1\.2\.3 is a private address/,
    ],
  ])("%s", async (_name, body, field, message) => {
    const response = await add(owner, body);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.fields?.[field]?.[0]).toMatch(message);
    expect(JSON.stringify(error)).not.toContain("hunter2");
    expect(await list(owner)).toEqual([]);
  });

  it("needs a session", async () => {
    const response = await destinationsRoute.GET(request("GET", "/api/alerts/destinations"));
    expect(response.status).toBe(401);
  });

  it("refuses a cross-site request", async () => {
    const response = await destinationsRoute.POST(
      request("POST", "/api/alerts/destinations", {
        cookie: owner,
        body: { kind: "slack", label: "x", url: "https://93.184.216.34/x" },
        headers: { origin: "https://evil.example" },
      }),
    );
    expect(response.status).toBe(403);
    expect(await list(owner)).toEqual([]);
  });
});

describe("PagerDuty: the routing key is never returned, and the events address is checked too", () => {
  const KEY = "R0UTINGKEY0123456789abcdefABCDEF";

  it("adds one under a region, masked in the answer and the list", async () => {
    const response = await add(owner, { kind: "pagerduty", label: "On-call", routingKey: KEY, region: "eu" });
    expect(response.status).toBe(201);
    const text = await response.text();
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text)).toMatchObject({
      destination: { kind: "pagerduty", target: "PagerDuty EU, key ••••CDEF" },
      signingSecret: null,
    });
    expect(JSON.stringify(await list(owner))).not.toContain(KEY);
  });

  it("refuses it by its Region when ALERTS_PAGERDUTY_EVENTS_URL points inside the network", async () => {
    stubEnv({ ALERTS_PAGERDUTY_EVENTS_URL: "https://10.0.0.7/v2/enqueue" });
    const response = await add(owner, { kind: "pagerduty", label: "On-call", routingKey: KEY });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.region?.[0]).toBe(
      "Region: its events address is refused (10.0.0.7 is a private address: alerts go only to public addresses). " +
        "Ask the console's operator to check ALERTS_PAGERDUTY_EVENTS_URL.",
    );
    expect(await list(owner)).toEqual([]);
  });
});

describe("every address inside a network is refused when added, by the field's label", () => {
  it.each([
    ...REFUSED_ADDRESSES.map(({ address, words }) => [urlHost(address), words] as const),
    ...REFUSED_NAMES.map((name) => [name, /is a name for this machine \(loopback\)/] as const),
  ])("https://%s/hook", async (host, words) => {
    for (const [kind, label] of [
      ["webhook", "Webhook URL"],
      ["slack", "Slack webhook URL"],
      ["teams", "Teams Workflows webhook URL"],
      ["discord", "Discord webhook URL"],
    ] as const) {
      const response = await add(owner, { kind, label: "Inside", url: `https://${host}/hook` });
      expect(response.status).toBe(400);
      const message = (await errorOf(response)).fields?.url?.[0];
      expect(message).toMatch(new RegExp(`^${label}: `));
      expect(message).toMatch(words);
      expect(message).toMatch(/Use the receiver's public https:\/\/ address\.$/);
    }
    expect(await list(owner)).toEqual([]);
  });

  it.each(PUBLIC_ADDRESSES)("a public address, %s, is added", async (address) => {
    const response = await add(owner, {
      kind: "slack",
      label: "Public",
      url: `https://${urlHost(address)}/x`,
    });
    expect(response.status).toBe(201);
  });
});

describe("destinations per application: at most ALERTS_MAX_DESTINATIONS", () => {
  it("refuses one past the cap by the address's field, adds none, and takes one again after a removal", async () => {
    stubEnv({ ALERTS_MAX_DESTINATIONS: "3" });
    for (let i = 1; i <= 3; i++)
      expect(
        (await add(owner, { kind: "slack", label: `Slack ${i}`, url: `https://93.184.216.34/${i}` })).status,
      ).toBe(201);
    for (const [body, field, label] of [
      [{ kind: "slack", label: "Slack 4", url: "https://93.184.216.34/4" }, "url", "Slack webhook URL"],
      [{ kind: "webhook", label: "Hook 4", url: "https://93.184.216.34/h4" }, "url", "Webhook URL"],
    ] as const) {
      const refused = await add(owner, body);
      expect(refused.status).toBe(400);
      expect((await errorOf(refused)).fields?.[field]?.[0]).toBe(
        `${label}: this application has 3 destinations, the most this console allows ` +
          "(ALERTS_MAX_DESTINATIONS=3). Remove one it no longer needs, then add this one.",
      );
    }
    expect((await list(owner)).map((d) => d.label)).toEqual(["Slack 1", "Slack 2", "Slack 3"]);
    // Another application has a cap of its own.
    expect(
      (await add(stranger, { kind: "slack", label: "Theirs", url: "https://93.184.216.34/t" })).status,
    ).toBe(201);

    const [first] = await list(owner);
    await destinationRoute.DELETE(
      request("DELETE", `/api/alerts/destinations/${first!.id}`, { cookie: owner }),
      ctx({ destinationId: first!.id }),
    );
    expect(
      (await add(owner, { kind: "slack", label: "Slack 4", url: "https://93.184.216.34/4" })).status,
    ).toBe(201);
  });

  it("many adds at once do not pass the cap", async () => {
    stubEnv({ ALERTS_MAX_DESTINATIONS: "5" });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        add(owner, { kind: "slack", label: `Burst ${i}`, url: `https://93.184.216.34/burst/${i}` }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(5);
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(7);
    expect(await list(owner)).toHaveLength(5);
  });

  it("is 20 unless set", async () => {
    for (let i = 1; i <= 20; i++)
      expect(
        (await add(owner, { kind: "slack", label: `S${i}`, url: `https://93.184.216.34/${i}` })).status,
      ).toBe(201);
    const refused = await add(owner, { kind: "slack", label: "S21", url: "https://93.184.216.34/21" });
    expect((await errorOf(refused)).fields?.url?.[0]).toMatch(
      /has 20 destinations.*ALERTS_MAX_DESTINATIONS=20/,
    );
  });
});

describe("the sandbox's inbox, when npm start started the sandbox (HUB_SANDBOX=1)", () => {
  let sandbox: TestReceiver;
  beforeEach(async () => {
    // A stand-in for the sandbox at HUB_BASE_URL: the console allows its inbox, and nothing else private.
    sandbox = await startReceiver(() => ({ status: 204 }));
    stubEnv({ HUB_SANDBOX: "1", HUB_BASE_URL: sandbox.url });
    return () => sandbox.close();
  });

  it("accepts the inbox's exact origin, and a test alert arrives there", async () => {
    const added = await add(owner, {
      kind: "webhook",
      label: "Sandbox inbox",
      url: `${sandbox.url}/_sandbox/inbox/webhook`,
    });
    expect(added.status).toBe(201);
    const { destination } = (await added.json()) as { destination: DestinationView };
    const sent = await sendTest(owner, destination.id);
    expect(((await sent.json()) as { delivery: DeliveryView }).delivery).toMatchObject({
      state: "delivered",
      statusCode: 204,
    });
    expect(sandbox.requests.map((r) => r.path)).toEqual(["/_sandbox/inbox/webhook"]);
  });

  it.each([
    ["a neighbouring port", (port: number) => `http://127.0.0.1:${port + 1}/_sandbox/inbox/webhook`],
    ["another name for the host", (port: number) => `http://localhost:${port}/_sandbox/inbox/slack`],
    ["another scheme", (port: number) => `https://127.0.0.1:${port}/_sandbox/inbox/webhook`],
    [
      "another path of the sandbox",
      (port: number) => `http://127.0.0.1:${port}/_sandbox/applications/x/api-key`,
    ],
    ["another private host", () => "http://10.0.0.1/_sandbox/inbox/webhook"],
  ])("refuses %s", async (_name, url) => {
    const port = Number(new URL(sandbox.url).port);
    const response = await add(owner, { kind: "slack", label: "Near", url: url(port) });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.url?.[0]).toMatch(/^Slack webhook URL: /);
    expect(await list(owner)).toEqual([]);
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe("with ALERTS_ALLOW_PRIVATE=1, against a receiver on loopback", () => {
  let receiver: TestReceiver;
  beforeEach(async () => {
    stubEnv({ ALERTS_ALLOW_PRIVATE: "1" });
    receiver = await startReceiver(() => ({ status: 200, body: "thanks" }));
    return () => receiver.close();
  });

  it("adds a signed webhook, shows its secret once and its URL masked, and Send test alert arrives signed and logged", async () => {
    const url = `${receiver.url}/inbox/private-path-token`;
    const added = await add(owner, { kind: "webhook", label: "Ops bridge", url });
    expect(added.status).toBe(201);
    const { destination, signingSecret } = (await added.json()) as {
      destination: DestinationView;
      signingSecret: string;
    };
    expect(signingSecret).toMatch(/^whsec_/);
    const listed = await list(owner);
    expect(listed).toEqual([destination]);
    expect(JSON.stringify(listed)).not.toContain("private-path-token");
    expect(JSON.stringify(listed)).not.toContain(signingSecret);

    const sent = await sendTest(owner, destination.id);
    expect(sent.status).toBe(200);
    const { delivery } = (await sent.json()) as { delivery: DeliveryView };
    expect(delivery).toMatchObject({
      destinationLabel: "Ops bridge",
      state: "delivered",
      attempts: 1,
      statusCode: 200,
      response: "thanks",
      alertKind: "test",
    });
    const [arrived] = receiver.requests;
    expect(arrived!.path).toBe("/inbox/private-path-token");
    const payload = new Webhook(signingSecret).verify(
      arrived!.body,
      arrived!.headers as Record<string, string>,
    );
    expect(payload).toMatchObject({ type: "alert.test", data: { idempotencyKey: delivery.idempotencyKey } });
    expect(JSON.stringify(payload)).toContain("http://console.test:3000/alerts?app=");

    const log = await deliveriesRoute.GET(request("GET", "/api/alerts/deliveries", { cookie: owner }));
    expect(((await log.json()) as { deliveries: DeliveryView[] }).deliveries).toContainEqual(delivery);
  });

  it("answers after the first attempt; a failed one waits in the outbox, and the log shows the dispatcher's retry", async () => {
    const flaky = await startReceiver((request) =>
      flaky.requests.indexOf(request) === 0 ? { status: 503, body: "busy" } : { status: 200, body: "ok" },
    );
    try {
      const added = await add(owner, { kind: "slack", label: "Flaky", url: `${flaky.url}/slack` });
      const { destination } = (await added.json()) as { destination: DestinationView };
      const sent = await sendTest(owner, destination.id);
      expect(sent.status).toBe(200);
      const { delivery } = (await sent.json()) as { delivery: DeliveryView };
      expect(delivery).toMatchObject({ state: "pending", attempts: 1, statusCode: 503, response: "busy" });
      expect(Date.parse(delivery.nextAttemptAt!)).toBeGreaterThan(Date.parse(delivery.updatedAt));
      expect(flaky.requests).toHaveLength(1);

      const readLog = async () => {
        const log = await deliveriesRoute.GET(request("GET", "/api/alerts/deliveries", { cookie: owner }));
        return ((await log.json()) as { deliveries: DeliveryView[] }).deliveries.find(
          (d) => d.id === delivery.id,
        )!;
      };
      expect(await readLog()).toEqual(delivery);
      // The console's dispatcher (here started by the test: WATCH_IN_CONSOLE=0) makes the retry.
      const dispatcher = createDispatcher(await sharedStoreContext(), testDispatchSettings());
      try {
        await until(readLog, (d) => d.state === "delivered");
      } finally {
        await dispatcher.stop();
      }
      expect(await readLog()).toMatchObject({
        state: "delivered",
        attempts: 2,
        statusCode: 200,
        nextAttemptAt: null,
      });
      expect(flaky.requests).toHaveLength(2);
    } finally {
      await flaky.close();
    }
  });

  it("another application's session neither sees, tests nor removes it; its owner removes it and the log stays", async () => {
    const added = await add(owner, { kind: "slack", label: "On-call", url: `${receiver.url}/slack` });
    const { destination } = (await added.json()) as { destination: DestinationView };
    await sendTest(owner, destination.id);

    expect(await list(stranger)).toEqual([]);
    expect((await sendTest(stranger, destination.id)).status).toBe(404);
    const removeAs = (cookie: string) =>
      destinationRoute.DELETE(
        request("DELETE", `/api/alerts/destinations/${destination.id}`, { cookie }),
        ctx({ destinationId: destination.id }),
      );
    expect((await removeAs(stranger)).status).toBe(404);
    const strangerLog = await deliveriesRoute.GET(
      request("GET", "/api/alerts/deliveries", { cookie: stranger }),
    );
    expect(((await strangerLog.json()) as { deliveries: DeliveryView[] }).deliveries).toEqual([]);
    expect(receiver.requests).toHaveLength(1);

    expect((await removeAs(owner)).status).toBe(200);
    expect(await list(owner)).toEqual([]);
    const ownerLog = await deliveriesRoute.GET(request("GET", "/api/alerts/deliveries", { cookie: owner }));
    const { deliveries } = (await ownerLog.json()) as { deliveries: DeliveryView[] };
    expect(deliveries.map((d) => d.destinationLabel)).toContain("On-call");
  });
});
