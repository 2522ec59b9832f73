import "server-only";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { sharedRedis, type SharedRedis } from "@/lib/server/shared-state/redis";

/**
 * Fixed-window rate limit (rate-limiter-flexible) per client address, plus a global cap of
 * GLOBAL_FACTOR × the per-client limit over all clients. With Redis the counts are shared by
 * every instance; without it, or while Redis is unreachable, they are kept in this process's
 * memory (N instances then allow up to N × the limit).
 *
 * The client is keyed by the right-most `X-Forwarded-For` address: Next fills that header from
 * the socket when absent, and a trusted proxy appends the address it saw. A client that sends
 * its own header can spoof its key when no proxy overwrites it; the global cap bounds the total
 * either way, and once it is reached new addresses are not even tracked.
 */

const GLOBAL_FACTOR = 20;
const GLOBAL_KEY = "all";

interface Store {
  perClient: RateLimiterAbstract;
  global: RateLimiterAbstract;
}

interface Built {
  limit: number;
  shared: SharedRedis | null;
  memory: Store;
  redis: Store | null;
}

export class RateLimiter {
  private built?: Built;

  constructor(
    private readonly limit: () => number,
    private readonly windowMs = 60_000,
    private readonly shared: () => SharedRedis | null = () => null,
    private readonly name = "rate-limit",
  ) {}

  /** Counts one attempt by `client`; rejects with a 429 AppError with Retry-After when over the limit. */
  async hit(client: string): Promise<void> {
    const built = this.limiters();
    const store = built.redis && (await built.shared?.usable()) ? built.redis : built.memory;
    const globalPoints = built.limit * GLOBAL_FACTOR;
    const all = await store.global.get(GLOBAL_KEY);
    if (all && all.consumedPoints >= globalPoints) refuse(all);
    await store.perClient.consume(client).catch(refuse);
    await store.global.consume(GLOBAL_KEY).catch(refuse);
  }

  /** Forgets this process's counts (Redis keeps its own until their window ends). */
  reset(): void {
    this.built = undefined;
  }

  private limiters(): Built {
    const limit = this.limit();
    const shared = this.shared();
    if (this.built?.limit === limit && this.built.shared === shared) return this.built;
    const duration = Math.max(1, Math.round(this.windowMs / 1000));
    const memory: Store = {
      perClient: new RateLimiterMemory({ points: limit, duration }),
      global: new RateLimiterMemory({ points: limit * GLOBAL_FACTOR, duration }),
    };
    // A failing Redis command counts in memory instead (the insurance limiter).
    const onRedis = (points: number, keyPrefix: string, insuranceLimiter: RateLimiterMemory) =>
      new RateLimiterRedis({
        storeClient: shared!.client,
        points,
        duration,
        keyPrefix: `hub-console:${keyPrefix}`,
        rejectIfRedisNotReady: true,
        insuranceLimiter,
      });
    const redis: Store | null = shared
      ? {
          perClient: onRedis(limit, this.name, memory.perClient as RateLimiterMemory),
          global: onRedis(limit * GLOBAL_FACTOR, `${this.name}:all`, memory.global as RateLimiterMemory),
        }
      : null;
    this.built = { limit, shared, memory, redis };
    return this.built;
  }
}

/** The 429 for a limiter's refusal (a RateLimiterRes); anything else is thrown as it is. */
function refuse(result: unknown): never {
  if (!(result instanceof RateLimiterRes)) throw result;
  const retryAfter = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
  throw new AppError("rate_limited", `Too many sign-in attempts. Wait ${retryAfter} s and try again.`, {
    retryAfter,
  });
}

/** The address a request came from, as well as it can be known (see above). */
export function clientAddress(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for");
  const last = forwarded?.split(",").pop()?.trim();
  return last || "unknown";
}

const globalForLimiter = globalThis as typeof globalThis & { __hubConsoleSignInLimiter?: RateLimiter };

/**
 * Sign-in attempts: SIGN_IN_RATE_LIMIT_PER_MINUTE (default 10) per client address per minute,
 * on Redis when REDIS_URL is set. Kept on globalThis so every route bundle of this process
 * shares one counter.
 */
export const signInLimiter = (globalForLimiter.__hubConsoleSignInLimiter ??= new RateLimiter(
  () => serverConfig().signInPerMinute,
  60_000,
  sharedRedis,
  "sign-in",
));
