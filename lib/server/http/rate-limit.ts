import "server-only";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { sharedRedis, type SharedRedis } from "@/lib/server/shared-state/redis";

/**
 * Fixed-window rate limit (rate-limiter-flexible) per client address. With Redis the counts are
 * shared by every instance; without it, or while Redis is unreachable, they are kept in this
 * process's memory (N instances then allow up to N × the limit).
 *
 * There is deliberately no cap over all clients together: anyone could burn it and lock everyone
 * out. `defineRoute` counts an attempt only once it could succeed (same-origin, its body valid), so
 * junk costs nobody a try. How the client's address is known is `clientAddress()` below.
 */

interface Built {
  limit: number;
  shared: SharedRedis | null;
  memory: RateLimiterMemory;
  redis: RateLimiterRedis | null;
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
    const limiter = built.redis && (await built.shared?.usable()) ? built.redis : built.memory;
    await limiter.consume(client).catch(refuse);
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
    const memory = new RateLimiterMemory({ points: limit, duration });
    // A failing Redis command counts in memory instead (the insurance limiter).
    const redis = shared
      ? new RateLimiterRedis({
          storeClient: shared.client,
          points: limit,
          duration,
          keyPrefix: `hub-console:${this.name}`,
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
        })
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

/**
 * The address a request came from: the right-most `X-Forwarded-For` entry. Route handlers do not
 * see the socket; Next fills that header from it when the request has none, and a proxy in front
 * appends (or sets) the address it saw, so the right-most entry is the one our side wrote. A
 * client that reaches the console directly and sends its own header chooses its key (more tries
 * for itself, or another address's spent), so deploy behind a proxy (SECURITY.md).
 */
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
