/**
 * Upstream faults, against the built console (so Next's own request plumbing is part
 * of what is tested), for what the sandbox's fault injection cannot produce: the console is
 * pointed at a scripted hub on 127.0.0.1 (fake-upstream.ts) for a dropped connection, a browser
 * that goes away, what reaches the hub, and a 401. Latency/timeout, 5xx, garbled answers and 429
 * run against the real sandbox in faults-sandbox.spec.ts. Also: the console refuses to start on
 * a bad SESSION_SECRET, naming it.
 */
import { request as httpRequest } from "node:http";
import { expect, test, type Page } from "@playwright/test";
import {
  fakeLogPage,
  fakeWebhook,
  sendJson,
  startFakeUpstream,
  type FakeUpstream,
} from "../../support/fake-upstream";
import { signIn } from "../../support/hub";
import { spawnConsole, startConsole, type ServerProcess } from "./support";

const CONSOLE_PORT = 3162;
const BOOT_PORT = 3163;
const HUB_TIMEOUT_MS = 1500;
const KEY = "faults-e2e-key-0123456789abcdef";
const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";

test.describe.configure({ mode: "serial", timeout: 60_000 });

let upstream: FakeUpstream;
let consoleServer: ServerProcess;
let cookie: string;

test.beforeAll(async () => {
  upstream = await startFakeUpstream();
  consoleServer = await startConsole(CONSOLE_PORT, {
    HUB_BASE_URL: upstream.url,
    HUB_TIMEOUT_MS: String(HUB_TIMEOUT_MS),
  });
  // Sign-in asks the hub about the key: this one knows it (no such webhook, but no 401).
  upstream.handle = (_req, res) => sendJson(res, 404, {});
  cookie = await signIn(consoleServer.url, KEY);
});

test.afterAll(async () => {
  await consoleServer?.stop();
  await upstream?.close();
});

test.beforeEach(() => {
  upstream.requests.length = 0;
  upstream.handle = (_req, res) => sendJson(res, 200, fakeWebhook(WEBHOOK));
});

async function get(path: string) {
  const response = await fetch(`${consoleServer.url}${path}`, { headers: { cookie } });
  const text = await response.text();
  return { response, body: JSON.parse(text) as { error?: { code: string; message: string } }, text };
}

test("a healthy hub: the webhook and its logs come through, the key only upstream", async () => {
  const webhook = await get(`/api/webhooks/${WEBHOOK}`);
  expect(webhook.response.status).toBe(200);
  expect(webhook.body).toEqual(fakeWebhook(WEBHOOK));
  expect(upstream.requests[0]!.headers["x-api-key"]).toBe(KEY);
  upstream.handle = (_req, res) => sendJson(res, 200, fakeLogPage(WEBHOOK));
  const logs = await get(`/api/webhooks/${WEBHOOK}/logs?limit=10`);
  expect(logs.response.status).toBe(200);
  expect(logs.text).not.toContain(KEY);
});

test("a dropped connection → 502 with a clear message", async () => {
  upstream.handle = (req) => void req.socket.destroy();
  const { response, body } = await get(`/api/webhooks/${WEBHOOK}`);
  expect(response.status).toBe(502);
  expect(body.error!.message).toMatch(/could not be reached/);
});

test("a Retry-After given as an HTTP date is passed on in seconds", async () => {
  upstream.handle = (_req, res) =>
    sendJson(res, 429, {}, { "retry-after": new Date(Date.now() + 30_000).toUTCString() });
  const { response, body } = await get(`/api/webhooks/${WEBHOOK}/logs`);
  expect(response.status).toBe(429);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(28);
  expect(Number(response.headers.get("retry-after"))).toBeLessThanOrEqual(30);
  expect(body.error!.code).toBe("rate_limited");
});

test("bad input never reaches the hub", async () => {
  for (const path of [
    "/api/webhooks/..%2F..%2Fv1%2Fadmin",
    "/api/webhooks/%2e%2e/logs",
    `/api/webhooks/${WEBHOOK}%2Fwebhook-log`,
    `/api/webhooks/${WEBHOOK}/logs?limit=51`,
    `/api/webhooks/${WEBHOOK}/logs?offset=-1`,
    `/api/webhooks/${WEBHOOK}/logs?status=Pending`,
    `/api/webhooks/https%3A%2F%2Fevil.example/logs`,
  ]) {
    const { response, body } = await get(path);
    expect([400, 404], path).toContain(response.status);
    expect(body.error?.code, path).toMatch(/bad_request|not_found/);
  }
  const send = await fetch(`${consoleServer.url}/api/messages/SMS%2F..`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ from: WEBHOOK, to: "1", content: { text: "x" } }),
  });
  expect(send.status).toBe(400);
  expect(upstream.requests).toEqual([]);
});

test("a browser that goes away cancels the upstream call", async () => {
  upstream.handle = () => {};
  const arrived = upstream.nextRequest();
  const client = httpRequest(`${consoleServer.url}/api/webhooks/${WEBHOOK}`, { headers: { cookie } });
  client.on("error", () => {});
  client.end();
  const recorded = await arrived;
  client.destroy();
  await expect.poll(() => recorded.aborted, { timeout: HUB_TIMEOUT_MS - 200, intervals: [50] }).toBe(true);
});

test("the hub rejecting the key ends the session: 401 clears the cookie; a page lands on /login?reason=key_rejected", async ({
  page,
}) => {
  await signInPage(page);
  upstream.handle = (_req, res) => sendJson(res, 401, {});
  const { response } = await get(`/api/webhooks/${WEBHOOK}`);
  expect(response.status).toBe(401);
  expect(response.headers.get("set-cookie")).toMatch(/^__Host-hub_console=; Path=\/; Max-Age=0/);

  await page.goto(`${consoleServer.url}/webhooks/${WEBHOOK}`);
  await page.waitForURL(/\/login\?reason=key_rejected/);
  expect((await page.context().cookies(consoleServer.url)).map((c) => c.name)).not.toContain(
    "__Host-hub_console",
  );
});

async function signInPage(page: Page) {
  await page.goto(`${consoleServer.url}/login`);
  await page.getByRole("textbox", { name: "API key" }).fill(KEY);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => url.pathname !== "/login");
}

test("a SESSION_SECRET under 32 characters (or a short previous one) stops the console at start, naming it", async () => {
  for (const [env, named] of [
    [{ SESSION_SECRET: "too-short" }, /SESSION_SECRET must be at least 32 characters/],
    [{ SESSION_SECRET_PREVIOUS: "old" }, /SESSION_SECRET_PREVIOUS entry 1 must be at least 32/],
  ] as const) {
    const server = spawnConsole(BOOT_PORT, { HUB_BASE_URL: upstream.url, ...env });
    const code = await Promise.race([
      server.exited.then((end) => end.code),
      new Promise<"running">((resolve) => setTimeout(() => resolve("running"), 20_000)),
    ]);
    if (code === "running") await server.stop();
    expect(code).toBe(1);
    expect(server.output()).toMatch(named);
  }
});
