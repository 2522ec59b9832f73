import http from "node:http";
import { expect, test } from "@playwright/test";
import { E2E_SESSION_SECRET } from "../../playwright.config";
import { freePort, startConsoleProcess, startSandboxProcess, type Server } from "../support/server-process";

/**
 * Identical reads over real connections: a production console (started here from the build, no
 * watcher) in front of the real sandbox, whose fault injection holds each call to one webhook's
 * logs for a while and counts the calls that reach it.
 */

test.describe.configure({ mode: "serial", timeout: 90_000 });

let sandbox: Server;
let console_: Server;
let webhookId: string;
/** Five sessions of the demo key, each signed in on its own. */
const cookies: string[] = [];

test.beforeAll(async () => {
  test.setTimeout(180_000);
  sandbox = await startSandboxProcess({ port: await freePort(), dbPath: ":memory:", seed: "demo" });
  console_ = await startConsoleProcess({
    name: "console (coalesced reads)",
    port: await freePort(),
    hubBaseUrl: sandbox.url,
    sessionSecret: E2E_SESSION_SECRET,
    env: { WATCH_IN_CONSOLE: "0", WATCH_DB: ":memory:" },
  });
  const demo = (await (await fetch(`${sandbox.url}/_sandbox/demo`)).json()) as {
    webhooks: Array<{ id: string }>;
  };
  webhookId = demo.webhooks[0]!.id;
  for (let i = 0; i < 5; i += 1) {
    const response = await fetch(`${console_.url}/api/session/demo`, {
      method: "POST",
      headers: { origin: console_.url },
    });
    expect(response.status, await response.clone().text()).toBe(200);
    cookies.push(response.headers.getSetCookie()[0]!.split(";")[0]!);
  }
});

test.afterAll(async () => {
  await console_?.stop();
  await sandbox?.stop();
});

/**
 * Holds every call to the webhook's logs for `latencyMs` at the sandbox and restarts its count.
 * The count is of the calls that reached the sandbox, held or not.
 */
async function holdLogCalls(latencyMs: number): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/faults`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ latencyMs, pathPrefix: `/v1/organization/webhook/${webhookId}/webhook-log` }),
  });
  expect(response.status).toBe(200);
}

async function logCalls(): Promise<number> {
  const response = await fetch(`${sandbox.url}/_sandbox/faults`);
  return ((await response.json()) as { injected: { requests: number } }).injected.requests;
}

/** One GET over `agent`: its status and body. */
function get(agent: http.Agent, path: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${console_.url}${path}`, { agent, headers: { cookie } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    request.on("error", reject);
  });
}

/** Ten keep-alive connections, each opened by a request of its own, so a read leaves on each at once. */
async function connected(): Promise<http.Agent> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
  const opened = await Promise.all(
    cookies.concat(cookies).map((cookie) => get(agent, "/api/session", cookie)),
  );
  expect(opened.map((r) => r.status)).toEqual(Array(10).fill(200));
  return agent;
}

/** Every read answered 200 with the same page of logs. */
function expectOnePage(reads: Array<{ status: number; body: string }>): void {
  expect(reads.map((r) => r.status)).toEqual(Array(10).fill(200));
  const pages = reads.map((r) => JSON.stringify((JSON.parse(r.body) as { data: unknown[] }).data));
  expect(new Set(pages).size).toBe(1);
}

test("ten identical reads from five sessions of one key, sent at once, make at most two hub calls", async () => {
  const agent = await connected();
  try {
    await holdLogCalls(1000);
    const path = `/api/webhooks/${webhookId}/logs?limit=20&offset=1`;
    const reads = await Promise.all(Array.from({ length: 10 }, (_, i) => get(agent, path, cookies[i % 5]!)));
    expectOnePage(reads);
    expect(await logCalls(), "hub calls for ten identical reads").toBeLessThanOrEqual(2);
  } finally {
    agent.destroy();
  }
});

test("ten identical reads that reach a busy console one wave after another, while its first hub call is out, make at most two hub calls", async () => {
  // A loaded machine delivers a burst like this: the console starts the first request's hub call
  // before the sender's next writes reach it, and the next wave's before the one after.
  const agent = await connected();
  try {
    await holdLogCalls(4000);
    const path = `/api/webhooks/${webhookId}/logs?limit=20&offset=2`;
    const send = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => get(agent, path, cookies[(from + i) % 5]!));
    const first = send(0, 1);
    await expect.poll(logCalls, { timeout: 10_000 }).toBe(1);
    const second = send(1, 5);
    // Until the hub has a second call, or a moment has passed without one.
    for (let waited = 0; waited < 10 && (await logCalls()) < 2; waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const third = send(5, 10);
    expectOnePage(await Promise.all([...first, ...second, ...third]));
    expect(await logCalls(), "hub calls for ten identical reads").toBeLessThanOrEqual(2);
  } finally {
    agent.destroy();
  }
});
