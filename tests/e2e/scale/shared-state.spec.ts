import { expect, test } from "@playwright/test";
import { E2E_SESSION_SECRET } from "../../../playwright.config";
import { demo } from "../../support/hub";
import { freePort, startConsoleProcess, type Server } from "../../support/server-process";
import { redisServer, type RedisServer } from "../../support/redis-server";
import { NEXT_BIN, spawnServer } from "../../support/server-process";
import { SANDBOX_URL } from "../fixtures/sandbox";

/**
 * Shared state across instances: two production instances (B and C, started here from the
 * build, same SESSION_SECRET) on one real redis-server, with a sign-in limit of 3 a minute.
 * The cases run in order: Redis up, then killed (an outage), then started again on its port.
 * Each case signs in from its own X-Forwarded-For address, so their counts do not mix.
 */

test.describe.configure({ mode: "serial", timeout: 60_000 });

const LIMIT = 3;

let redis: RedisServer;
let b: Server;
let c: Server;
let demoKey: string;
let webhookId: string;
/** Signed out on B while Redis was down; refused on C only once Redis is back. */
let signedOutDuringOutage: string;
/** Signed out on B before the outage; Redis comes back empty and B writes it again. */
let signedOutBefore: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  redis = await redisServer();
  const found = await demo(SANDBOX_URL);
  demoKey = found.apiKey;
  webhookId = found.webhookIds[0] ?? "";
  const start = async (name: string) =>
    startConsoleProcess({
      name,
      port: await freePort(),
      hubBaseUrl: SANDBOX_URL,
      sessionSecret: E2E_SESSION_SECRET,
      env: { REDIS_URL: redis.url, SIGN_IN_RATE_LIMIT_PER_MINUTE: String(LIMIT) },
    });
  [b, c] = await Promise.all([start("console B"), start("console C")]);
  // Until an instance's Redis connection is up, its limiter counts in memory, per instance.
  for (const instance of [b, c]) await expect.poll(async () => (await readiness(instance)).status).toBe(200);
});

test.afterAll(async () => {
  await Promise.all([b?.stop(), c?.stop()]);
  await redis?.stop();
});

async function signIn(
  instance: Server,
  address: string,
): Promise<{ status: number; cookie: string; retryAfter: string | null; message: string }> {
  const response = await fetch(`${instance.url}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: instance.url, "x-forwarded-for": address },
    body: JSON.stringify({ apiKey: demoKey }),
  });
  const body = (await response.json()) as { error?: { message?: string } };
  const cookie = response.headers.getSetCookie()[0]?.split(";")[0] ?? "";
  return {
    status: response.status,
    cookie,
    retryAfter: response.headers.get("retry-after"),
    message: body.error?.message ?? "",
  };
}

async function signedInCookie(instance: Server, address: string): Promise<string> {
  const answer = await signIn(instance, address);
  expect(answer.status, answer.message).toBe(200);
  return answer.cookie;
}

async function signOut(instance: Server, cookie: string): Promise<void> {
  const response = await fetch(`${instance.url}/api/session`, {
    method: "DELETE",
    headers: { origin: instance.url, cookie },
  });
  expect(response.status).toBe(200);
  expect(response.headers.getSetCookie().join()).toMatch(/Max-Age=0/);
}

/** The status of a signed-in read (the logs of a demo webhook). */
async function logsStatus(instance: Server, cookie: string): Promise<number> {
  const response = await fetch(`${instance.url}/api/webhooks/${webhookId}/logs?limit=5`, {
    headers: { cookie },
  });
  await response.arrayBuffer();
  return response.status;
}

async function readiness(instance: Server): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${instance.url}/api/health/ready`);
  return { status: response.status, body: await response.json() };
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

test("the sign-in limit holds across instances", async () => {
  const address = "10.9.0.1";
  expect((await signIn(b, address)).status).toBe(200);
  expect((await signIn(c, address)).status).toBe(200);
  expect((await signIn(b, address)).status).toBe(200);
  for (const instance of [c, b]) {
    const refused = await signIn(instance, address);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.message).toBe(`Too many sign-in attempts. Wait ${refused.retryAfter} s and try again.`);
  }
  expect((await signIn(c, "10.9.0.99")).status).toBe(200);
});

test("signing out on B ends the session on C too: 401, and the pages send it to sign in", async () => {
  const cookie = await signedInCookie(b, "10.9.0.2");
  expect(await logsStatus(c, cookie)).toBe(200);
  await signOut(b, cookie);
  signedOutBefore = cookie;
  for (const instance of [c, b]) expect(await logsStatus(instance, cookie)).toBe(401);
  const session = await fetch(`${c.url}/api/session`, { headers: { cookie } });
  expect(await session.json()).toEqual({ signedIn: false, keyHint: null });
  const page = await fetch(`${c.url}/webhooks/${webhookId}`, { headers: { cookie }, redirect: "manual" });
  expect(page.status).toBeGreaterThanOrEqual(300);
  expect(page.status).toBeLessThan(400);
  expect(page.headers.get("location")).toContain("/api/session/end?reason=expired");
});

test("a forged, tampered or revoked cookie is 401 on every instance", async () => {
  const valid = await signedInCookie(c, "10.9.0.3");
  const [name, value] = [valid.slice(0, valid.indexOf("=")), valid.slice(valid.indexOf("=") + 1)];
  const tampered = `${name}=${value.slice(0, -4)}${value.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
  const forged = `${name}=Fe26.2*1*${"a".repeat(43)}*${"b".repeat(22)}*${"c".repeat(64)}*${Date.now() + 60_000}*${"d".repeat(43)}*${"e".repeat(43)}~2`;
  const revoked = await signedInCookie(c, "10.9.0.3");
  await signOut(c, revoked);
  for (const instance of [b, c]) {
    for (const cookie of [tampered, forged, revoked]) expect(await logsStatus(instance, cookie)).toBe(401);
    expect(await logsStatus(instance, valid)).toBe(200);
  }
});

test("while Redis is down, people keep working: reads answer, sign-in is limited per instance, logged once", async () => {
  const reader = await signedInCookie(b, "10.9.0.4");
  signedOutDuringOutage = await signedInCookie(c, "10.9.0.4");
  await redis.stop();

  for (const instance of [b, c]) {
    expect(await readiness(instance)).toEqual({
      status: 503,
      body: { status: "not ready", checks: { redis: "unreachable" } },
    });
    const started = Date.now();
    for (let i = 0; i < 5; i++) expect(await logsStatus(instance, reader)).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
  }

  for (const instance of [b, c]) {
    for (let i = 0; i < LIMIT; i++) expect((await signIn(instance, "10.9.0.5")).status).toBe(200);
    expect((await signIn(instance, "10.9.0.5")).status).toBe(429);
  }

  // Signed out on B meanwhile: refused on B at once; C cannot know until Redis is back.
  await signOut(b, signedOutDuringOutage);
  expect(await logsStatus(b, signedOutDuringOutage)).toBe(401);
  expect(await logsStatus(c, signedOutDuringOutage)).toBe(200);

  for (const instance of [b, c]) expect(count(instance.output(), "is unreachable")).toBe(1);
});

test("when Redis returns, it is used again without a restart: sign-outs are shared again", async () => {
  await redis.start();
  await expect
    .poll(async () => [(await readiness(b)).status, (await readiness(c)).status], { timeout: 10_000 })
    .toEqual([200, 200]);
  // The sign-out recorded during the outage reached Redis, and so did the one the empty Redis lost.
  await expect.poll(() => logsStatus(c, signedOutDuringOutage), { timeout: 5_000 }).toBe(401);
  await expect.poll(() => logsStatus(c, signedOutBefore), { timeout: 5_000 }).toBe(401);

  const cookie = await signedInCookie(c, "10.9.0.6");
  expect(await logsStatus(b, cookie)).toBe(200);
  await signOut(c, cookie);
  expect(await logsStatus(b, cookie)).toBe(401);

  for (const instance of [b, c]) expect(count(instance.output(), "is reachable again")).toBe(1);
});

test("a REDIS_URL that cannot be parsed stops the console at start, naming it but not its password", async () => {
  const port = await freePort();
  const server = spawnServer(
    "console (bad REDIS_URL)",
    [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      NODE_ENV: "production",
      HUB_BASE_URL: SANDBOX_URL,
      SESSION_SECRET: E2E_SESSION_SECRET,
      REDIS_URL: "redis://:hunter2-password@no such host:6379",
    },
  );
  const end = await Promise.race([
    server.exited,
    new Promise<"running">((resolve) => setTimeout(() => resolve("running"), 20_000)),
  ]);
  if (end === "running") await server.stop();
  expect(end).toMatchObject({ code: 1 });
  expect(server.output()).toMatch(/Refusing to start: REDIS_URL must be a URL like redis:\/\//);
  expect(server.output()).not.toContain("hunter2");
});
