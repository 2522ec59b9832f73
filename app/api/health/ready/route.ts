import { defineRoute } from "@/lib/server/http/route";
import { sharedRedis } from "@/lib/server/shared-state/redis";

/**
 * Readiness: 200 when every dependency this instance shares state through answers; 503 when
 * REDIS_URL is set and Redis does not answer a PING (within its short command timeout), naming
 * the check that failed. Reads no session; the hub is not checked (its answers reach people as
 * they are, and a hub outage is not this instance's to fix).
 */
export const GET = defineRoute({
  async handle() {
    const redis = sharedRedis();
    const redisCheck = redis === null ? "not configured" : (await redis.ping()) ? "ok" : "unreachable";
    const ready = redisCheck !== "unreachable";
    return Response.json(
      { status: ready ? "ready" : "not ready", checks: { redis: redisCheck } },
      { status: ready ? 200 : 503 },
    );
  },
});
