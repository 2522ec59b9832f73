import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as live } from "@/app/api/health/route";
import { GET as ready } from "@/app/api/health/ready/route";
import { sharedRedis } from "@/lib/server/shared-state/redis";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { redisServer, type RedisServer } from "@/tests/support/redis-server";

let redis: RedisServer;

beforeAll(async () => {
  redis = await redisServer();
});
afterAll(async () => {
  stubEnv({ REDIS_URL: redis.url });
  await sharedRedis()?.close();
  restoreEnv();
  await redis.stop();
});
afterEach(restoreEnv);

async function answer(route: typeof live): Promise<{ status: number; body: unknown; cache: string | null }> {
  const response = await route(new Request("http://127.0.0.1/api/health"));
  return {
    status: response.status,
    body: await response.json(),
    cache: response.headers.get("cache-control"),
  };
}

describe("GET /api/health", () => {
  it("200 without a session or any upstream, not cached", async () => {
    stubEnv({ HUB_BASE_URL: "http://127.0.0.1:9", REDIS_URL: "" });
    expect(await answer(live)).toEqual({ status: 200, body: { status: "ok" }, cache: "no-store" });
  });
});

describe("GET /api/health/ready", () => {
  it("200 when Redis is not configured", async () => {
    stubEnv({ REDIS_URL: "" });
    expect(await answer(ready)).toMatchObject({
      status: 200,
      body: { status: "ready", checks: { redis: "not configured" } },
    });
  });

  it("200 while the configured Redis answers, 503 naming it while it is down, 200 again when it returns", async () => {
    stubEnv({ REDIS_URL: redis.url });
    expect(await answer(ready)).toMatchObject({
      status: 200,
      body: { status: "ready", checks: { redis: "ok" } },
    });
    await redis.stop();
    expect(await answer(ready)).toMatchObject({
      status: 503,
      body: { status: "not ready", checks: { redis: "unreachable" } },
    });
    await redis.start();
    const deadline = Date.now() + 5000;
    while ((await answer(ready)).status !== 200 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(await answer(ready)).toMatchObject({ status: 200, body: { checks: { redis: "ok" } } });
  });
});
