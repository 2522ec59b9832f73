import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/server/app-error";
import { RateLimiter } from "@/lib/server/http/rate-limit";
import { SharedRedis } from "@/lib/server/shared-state/redis";
import { Revocations, redisRevocations } from "@/lib/server/shared-state/revocations";
import { redisServer, type RedisServer } from "@/tests/support/redis-server";

/**
 * Two "instances" (each its own connection, revocation list and limiter) on one real
 * redis-server, through an outage (the server killed), a recovery (started again on the same
 * port) and a hung server (SIGSTOP). The cases run in order: each starts where the last ended.
 */

interface Instance {
  shared: SharedRedis;
  revocations: Revocations;
  limiter: RateLimiter;
  logs: string[];
}

let redis: RedisServer;
let a: Instance;
let b: Instance;

function instance(url: string): Instance {
  const logs: string[] = [];
  const log = { info: (line: string) => logs.push(line), error: (line: string) => logs.push(line) };
  const shared = new SharedRedis(url, log);
  return {
    shared,
    logs,
    revocations: new Revocations(redisRevocations(shared)),
    limiter: new RateLimiter(
      () => 3,
      60_000,
      () => shared,
      "test",
    ),
  };
}

async function refusedAfter(limiter: RateLimiter, client: string): Promise<number | undefined> {
  try {
    await limiter.hit(client);
    return undefined;
  } catch (error) {
    if (error instanceof AppError && error.code === "rate_limited") return error.retryAfter;
    throw error;
  }
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

beforeAll(async () => {
  redis = await redisServer();
  a = instance(redis.url);
  b = instance(redis.url);
  await until(() => a.shared.available() && b.shared.available());
});

afterAll(async () => {
  await Promise.all([a?.shared.close(), b?.shared.close()]);
  await redis?.stop();
});

describe("shared state on a real Redis", () => {
  it("counts sign-ins across instances: the limit holds for both together", async () => {
    expect(await refusedAfter(a.limiter, "10.0.0.1")).toBeUndefined();
    expect(await refusedAfter(b.limiter, "10.0.0.1")).toBeUndefined();
    expect(await refusedAfter(a.limiter, "10.0.0.1")).toBeUndefined();
    const retryAfter = await refusedAfter(b.limiter, "10.0.0.1");
    expect(retryAfter).toBeGreaterThan(55);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refusedAfter(b.limiter, "10.0.0.2")).toBeUndefined();
  });

  it("a sign-out on one instance is refused on the other, until the session would have expired", async () => {
    await a.revocations.revoke("session-one-0123456789", Date.now() + 60_000);
    expect(await b.revocations.isRevoked("session-one-0123456789")).toBe(true);
    expect(await b.revocations.isRevoked("session-two-0123456789")).toBe(false);
    const ttl = await b.shared.client.pttl("hub-console:revoked-session:session-one-0123456789");
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("while Redis is down: nothing waits on it, limits count per instance, sign-outs hold where recorded, logged once", async () => {
    await redis.stop();
    await until(() => !a.shared.available() && !b.shared.available());

    const check = await timed(() => b.revocations.isRevoked("session-one-0123456789"));
    expect(check.ms).toBeLessThan(100);
    expect(check.value).toBe(false); // fails open: only this instance's own sign-outs are known

    await a.revocations.revoke("session-three-0123456789", Date.now() + 60_000);
    expect(await a.revocations.isRevoked("session-three-0123456789")).toBe(true);
    expect(await b.revocations.isRevoked("session-three-0123456789")).toBe(false);
    expect(a.revocations.waitingToShare()).toBe(1);

    for (const one of [a, b]) {
      for (let i = 0; i < 3; i++) expect(await refusedAfter(one.limiter, "10.0.0.9")).toBeUndefined();
      expect(await refusedAfter(one.limiter, "10.0.0.9")).toBeGreaterThan(0);
    }
    for (let i = 0; i < 20; i++) await b.revocations.isRevoked("session-x-0123456789");

    for (const one of [a, b]) {
      expect(one.logs.filter((line) => line.includes("is unreachable"))).toHaveLength(1);
    }
  });

  it("when Redis returns (empty): picked up without a restart, every sign-out is shared again, logged once", async () => {
    await redis.start();
    await until(() => a.shared.available() && b.shared.available());
    await until(() => a.revocations.waitingToShare() === 0);
    expect(await b.revocations.isRevoked("session-three-0123456789")).toBe(true);
    // Recorded by A before the outage; the restarted Redis had lost it.
    expect(await b.revocations.isRevoked("session-one-0123456789")).toBe(true);
    for (const one of [a, b]) {
      expect(one.logs.filter((line) => line.includes("reachable again"))).toHaveLength(1);
    }
    await b.revocations.revoke("session-four-0123456789", Date.now() + 60_000);
    expect(await a.revocations.isRevoked("session-four-0123456789")).toBe(true);
  });

  it("a hung Redis costs one short timeout, then is skipped for a moment; no request waits long", async () => {
    redis.pause();
    try {
      const first = await timed(() => a.revocations.isRevoked("session-four-0123456789"));
      expect(first.value).toBe(false);
      expect(first.ms).toBeLessThan(1000);
      const next = await timed(() => a.revocations.isRevoked("session-four-0123456789"));
      expect(next.ms).toBeLessThan(50);
      const signIn = await timed(() => refusedAfter(a.limiter, "10.0.0.20"));
      expect(signIn.value).toBeUndefined();
      expect(signIn.ms).toBeLessThan(50);
    } finally {
      redis.resume();
    }
    await until(async () => (await a.revocations.isRevoked("session-four-0123456789")) === true, 8000);
  });
});
