import "server-only";
import { sleepUntil } from "@/lib/server/history/retry";

/**
 * Hub calls per application key, in this instance: a token bucket (a burst of a tenth of a
 * minute's worth), paused while the hub's Retry-After runs.
 */
export class KeyBudgets {
  private readonly buckets = new Map<string, { tokens: number; at: number; pausedUntil: number }>();
  private readonly perMs: number;
  private readonly burst: number;

  constructor(perMinute: number) {
    this.perMs = perMinute / 60_000;
    this.burst = Math.max(1, Math.ceil(perMinute / 10));
  }

  private bucket(key: string, now: number) {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.burst, at: now, pausedUntil: 0 };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    return bucket;
  }

  /** Waits for a call of `key` to be allowed (or `signal` to abort), and counts it. */
  async take(key: string, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const now = Date.now();
      const bucket = this.bucket(key, now);
      if (bucket.pausedUntil > now) {
        await sleepUntil(bucket.pausedUntil, signal);
      } else if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return;
      } else {
        await sleepUntil(now + Math.ceil((1 - bucket.tokens) / this.perMs), signal);
      }
    }
  }

  /** The hub asked this key to wait: no call of it until then. */
  pause(key: string, seconds: number): void {
    const bucket = this.bucket(key, Date.now());
    bucket.pausedUntil = Math.max(bucket.pausedUntil, Date.now() + seconds * 1000);
  }

  /** The calls each key used so far may make now: its whole tokens, 0 while the hub pauses it. */
  left(now = Date.now()): Array<{ key: string; calls: number }> {
    return [...this.buckets.keys()].map((key) => {
      const bucket = this.bucket(key, now);
      return { key, calls: bucket.pausedUntil > now ? 0 : Math.floor(bucket.tokens) };
    });
  }
}

const SHARED = Symbol.for("hub-console.question-key-budgets");

/** The questions' budgets (HISTORY_KEY_REQUESTS_PER_MINUTE): a person waits on them, unlike the watcher's. */
export function questionKeyBudgets(perMinute: number): KeyBudgets {
  const shared = globalThis as Record<symbol, KeyBudgets | undefined>;
  return (shared[SHARED] ??= new KeyBudgets(perMinute));
}
