/**
 * Upstream faults, against the real sandbox: the built console on its own port in
 * front of its own sandbox, whose fault injection (lib/sandbox/faults.ts) is switched on and off
 * through `PUT/DELETE /_sandbox/faults` while both run. Each fault must come back as the
 * console's documented answer, and the console must answer normally again the moment the
 * sandbox does. What the sandbox cannot produce (a dropped connection, a client that goes away,
 * a scripted 401) stays in faults.spec.ts, on a fake upstream.
 */
import { expect, test } from "@playwright/test";
import { DEMO_CHANNELS } from "../../../lib/sandbox/seed";
import { signIn } from "../../support/hub";
import { DEMO_KEY, DEMO_WEBHOOK as WEBHOOK, startFaultStack, type FaultStack } from "./fault-stack";
import { sandboxAdmin } from "./support";

const CONSOLE_PORT = 3165;
const SANDBOX_PORT = 4165;
const HUB_TIMEOUT_MS = 1500;
const CHANNEL = DEMO_CHANNELS[0];

test.describe.configure({ mode: "serial", timeout: 60_000 });

let stack: FaultStack;
let cookie: string;

const setFaults: FaultStack["setFaults"] = (settings) => stack.setFaults(settings);
const faultsOff = () => stack.faultsOff();
const faultState = () => stack.faultState();
const messageCount = async () =>
  (await sandboxAdmin<{ messages: number }>(stack.sandbox, "GET", "/_sandbox/stats")).messages;

test.beforeAll(async () => {
  stack = await startFaultStack({
    consolePort: CONSOLE_PORT,
    sandboxPort: SANDBOX_PORT,
    hubTimeoutMs: HUB_TIMEOUT_MS,
  });
  cookie = await signIn(stack.console.url, DEMO_KEY);
});

test.afterAll(async () => {
  await stack?.stop();
});

test.afterEach(async () => {
  await faultsOff();
});

interface Answer {
  status: number;
  retryAfter: string | null;
  elapsed: number;
  body: { error?: { code: string; message: string } } & Record<string, unknown>;
}

async function call(path: string, init: { method?: string; body?: unknown } = {}): Promise<Answer> {
  const started = Date.now();
  const response = await fetch(`${stack.console.url}${path}`, {
    method: init.method ?? "GET",
    headers: {
      cookie,
      ...(init.body === undefined ? {} : { "content-type": "application/json", origin: stack.console.url }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await response.json()) as Answer["body"];
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    elapsed: Date.now() - started,
    body,
  };
}

const getWebhook = () => call(`/api/webhooks/${WEBHOOK}`);
const getLogs = () => call(`/api/webhooks/${WEBHOOK}/logs?limit=10`);
const send = () =>
  call(`/api/messages/${CHANNEL.kind}`, {
    method: "POST",
    body: { from: CHANNEL.id, to: "5511999990000", content: { text: "fault injection e2e" } },
  });

/** The console serves the webhook and its logs again: what "recovers when the upstream does" means here. */
async function expectHealthy() {
  expect((await getWebhook()).status).toBe(200);
  const logs = await getLogs();
  expect(logs.status).toBe(200);
  expect((logs.body.data as unknown[]).length).toBe(10);
}

test("with no faults, the webhook and its logs come through the console", async () => {
  await expectHealthy();
  expect(await faultState()).toMatchObject({ active: false });
});

test("latency past HUB_TIMEOUT_MS → 504 within HUB_TIMEOUT_MS + 1 s; the next call after the fault is off is 200", async () => {
  await setFaults({ latencyMs: HUB_TIMEOUT_MS + 2000 });
  for (const answer of [await getWebhook(), await getLogs()]) {
    expect(answer.status).toBe(504);
    expect(answer.body.error).toMatchObject({
      code: "upstream_timeout",
      message: expect.stringContaining("did not answer within 1.5 s"),
    });
    expect(answer.elapsed).toBeGreaterThanOrEqual(HUB_TIMEOUT_MS - 50);
    expect(answer.elapsed).toBeLessThan(HUB_TIMEOUT_MS + 1000);
  }
  expect((await faultState()).injected).toMatchObject({ requests: 2, delayed: 2 });
  await faultsOff();
  await expectHealthy();
});

test("latency under HUB_TIMEOUT_MS is only slower", async () => {
  await setFaults({ latencyMs: "300-500" });
  const answer = await getWebhook();
  expect(answer.status).toBe(200);
  expect(answer.elapsed).toBeGreaterThanOrEqual(300);
});

test("a timed-out send was dropped by the hub: 504, and no message was stored", async () => {
  const before = await messageCount();
  await setFaults({ latencyMs: HUB_TIMEOUT_MS + 1000 });
  const answer = await send();
  expect(answer.status).toBe(504);
  // The sandbox drops a request whose caller left during the added latency (lib/sandbox/README.md).
  await new Promise((resolve) => setTimeout(resolve, 1200));
  expect(await messageCount()).toBe(before);
});

test("error rate 1 → 502 with a clear message on every route; a faulted send stores nothing", async () => {
  const before = await messageCount();
  await setFaults({ errorRate: 1 });
  for (const answer of [await getWebhook(), await getLogs(), await send()]) {
    expect(answer.status).toBe(502);
    expect(answer.body.error).toMatchObject({
      code: "upstream_error",
      message: expect.stringMatching(/^The Messaging Hub failed with HTTP 50[03]\. Try again in a moment/),
    });
  }
  expect(await messageCount()).toBe(before);
  expect((await faultState()).injected.errors).toBe(3);
  await faultsOff();
  await expectHealthy();
  expect((await send()).status).toBe(202);
});

test("garbled answers (HTML, cut-off JSON, wrong shape) → 502 upstream_invalid, each with a clear message", async () => {
  await setFaults({ garbleRate: 1 });
  const messages: string[] = [];
  for (const answer of [await getWebhook(), await getLogs(), await getWebhook()]) {
    expect(answer.status).toBe(502);
    expect(answer.body.error!.code).toBe("upstream_invalid");
    messages.push(answer.body.error!.message);
  }
  // The sandbox garbles in turn: HTML, then cut-off JSON (neither is JSON), then an array of wrong fields.
  expect(messages[0]).toMatch(/answered with something that is not JSON/);
  expect(messages[1]).toMatch(/answered with something that is not JSON/);
  expect(messages[2]).toMatch(/answered in a shape the console does not understand/);
  // A garbled answer to a send is refused too (the spec shows no send answer, but it must be an object).
  const before = await messageCount();
  await setFaults({ garbleRate: 1 });
  const sent = await Promise.all([send(), send(), send()]);
  expect(sent.map((a) => a.status)).toEqual([502, 502, 502]);
  expect(await messageCount()).toBe(before);
});

test("429 → 429 with the hub's Retry-After", async () => {
  await setFaults({ rateLimitRate: 1, retryAfterSeconds: 9 });
  const answer = await getLogs();
  expect(answer.status).toBe(429);
  expect(answer.retryAfter).toBe("9");
  expect(answer.body.error).toMatchObject({
    code: "rate_limited",
    message: expect.stringContaining("Wait 9 s"),
  });
});

test("mixed faults at a seeded rate: the console answers each call as the sandbox faulted it", async () => {
  await setFaults({ errorRate: 0.25, rateLimitRate: 0.15, garbleRate: 0.15, seed: 2024 });
  const statuses: number[] = [];
  for (let i = 0; i < 30; i++) statuses.push((await getWebhook()).status);
  const { injected } = await faultState();
  const count = (status: number) => statuses.filter((s) => s === status).length;
  expect(injected.requests).toBe(30);
  expect(count(502)).toBe(injected.errors + injected.garbled);
  expect(count(429)).toBe(injected.rateLimited);
  expect(count(200)).toBe(30 - injected.errors - injected.garbled - injected.rateLimited);
  expect(count(200)).toBeGreaterThan(0);
  expect(count(502)).toBeGreaterThan(0);
});

test("faults scoped to one path: the logs fail, the webhook does not", async () => {
  await setFaults({ errorRate: 1, pathPrefix: `/v1/organization/webhook/${WEBHOOK}/webhook-log` });
  expect((await getLogs()).status).toBe(502);
  expect((await getWebhook()).status).toBe(200);
});
