import "server-only";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";

/**
 * Fixed-window rate limiter, IN MEMORY and PER INSTANCE: with N console instances behind a load
 * balancer a client gets up to N times the limit, and a restart forgets all counts. Good enough
 * to stop a script hammering sign-in; a shared store (Redis) would be the next step.
 *
 * The client is keyed by the right-most `X-Forwarded-For` address: Next fills that header from
 * the socket when absent, and a trusted proxy appends the address it saw. A client that sends
 * its own header can spoof its key when no proxy overwrites it, so a global limit per instance
 * (GLOBAL_FACTOR × the per-client limit) bounds the total either way.
 */

interface Window {
  count: number;
  resetAt: number;
}

const GLOBAL_FACTOR = 20;
const MAX_TRACKED_CLIENTS = 10_000;

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private global: Window = { count: 0, resetAt: 0 };

  constructor(
    private readonly limit: () => number,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts one attempt by `client`; throws a 429 AppError with Retry-After when over the limit. */
  hit(client: string, now = Date.now()): void {
    const limit = this.limit();
    if (this.global.resetAt <= now) this.global = { count: 0, resetAt: now + this.windowMs };
    let window = this.windows.get(client);
    if (!window || window.resetAt <= now) {
      if (this.windows.size >= MAX_TRACKED_CLIENTS) this.prune(now);
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(client, window);
    }
    const over =
      window.count >= limit ? window : this.global.count >= limit * GLOBAL_FACTOR ? this.global : null;
    if (over) {
      const retryAfter = Math.max(1, Math.ceil((over.resetAt - now) / 1000));
      throw new AppError("rate_limited", `Too many sign-in attempts. Wait ${retryAfter} s and try again.`, {
        retryAfter,
      });
    }
    window.count += 1;
    this.global.count += 1;
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    // Still full of live windows (an address-spoofing flood): forget the oldest half.
    if (this.windows.size >= MAX_TRACKED_CLIENTS) {
      let drop = this.windows.size / 2;
      for (const key of this.windows.keys()) {
        if (drop-- <= 0) break;
        this.windows.delete(key);
      }
    }
  }

  reset(): void {
    this.windows.clear();
    this.global = { count: 0, resetAt: 0 };
  }
}

/** The address a request came from, as well as it can be known (see above). */
export function clientAddress(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for");
  const last = forwarded?.split(",").pop()?.trim();
  return last || "unknown";
}

const globalForLimiter = globalThis as typeof globalThis & { __hubConsoleSignInLimiter?: RateLimiter };

/**
 * Sign-in attempts: SIGN_IN_RATE_LIMIT_PER_MINUTE (default 10) per client address per minute.
 * Kept on globalThis so every route bundle of this process shares one counter.
 */
export const signInLimiter = (globalForLimiter.__hubConsoleSignInLimiter ??= new RateLimiter(
  () => serverConfig().signInPerMinute,
));
