/**
 * The health of a run of deliveries (newest first, as the API lists them): attempts per time
 * bucket, success rate, last success and failure, the current failing streak, failures by code.
 * Built one log at a time so a scan never holds more than two numbers per log for it.
 */

/** The quick picks of the "Delivery health" window. */
export const HEALTH_WINDOWS = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000 } as const;
export type HealthWindow = keyof typeof HEALTH_WINDOWS;
export const DEFAULT_HEALTH_WINDOW: HealthWindow = "24h";

export function isHealthWindow(value: string): value is HealthWindow {
  return Object.hasOwn(HEALTH_WINDOWS, value);
}

/** Bucket sizes the chart may use; the smallest giving at most MAX_BUCKETS bars wins. */
const BUCKET_SIZES = [60_000, 300_000, 900_000, 3_600_000, 3 * 3_600_000, 6 * 3_600_000, 86_400_000];
const MAX_BUCKETS = 48;

export function bucketSizeFor(spanMs: number): number {
  return BUCKET_SIZES.find((size) => spanMs / size <= MAX_BUCKETS) ?? Math.ceil(spanMs / MAX_BUCKETS);
}

export interface HealthBucket {
  /** ISO start of the bucket. */
  start: string;
  success: number;
  failed: number;
}

export interface HealthSummary {
  /** ISO bounds of what the buckets cover. */
  from: string | null;
  to: string | null;
  bucketMs: number;
  buckets: HealthBucket[];
  attempts: number;
  success: number;
  failed: number;
  /** 0..100, one decimal; null when there were no attempts. */
  successRate: number | null;
  lastSuccess: { at: string; logId: string } | null;
  lastFailure: { at: string; logId: string; statusCode: number } | null;
  /**
   * The failures in a row since the newest success, when the newest attempt failed.
   * `since` is when the oldest of them was sent; `atLeast` says the run goes past what was read.
   */
  failingStreak: { since: string; length: number; atLeast: boolean } | null;
  /** Failed attempts by status code, most frequent first. */
  failuresByCode: Array<{ statusCode: number; count: number }>;
}

export interface HealthLog {
  id: string;
  status: string;
  statusCode: number;
  sendAt: string;
}

export class HealthBuilder {
  private readonly times: number[] = [];
  private readonly failedFlags: boolean[] = [];
  private readonly codes = new Map<number, number>();
  private lastSuccess: HealthSummary["lastSuccess"] = null;
  private lastFailure: HealthSummary["lastFailure"] = null;
  private streak = 0;
  private streakSince: string | null = null;
  private streakOpen = true;

  /** Logs must come newest first. */
  add(log: HealthLog): void {
    const failed = log.status !== "Success";
    const time = Date.parse(log.sendAt);
    this.times.push(Number.isFinite(time) ? time : 0);
    this.failedFlags.push(failed);
    if (failed) {
      this.codes.set(log.statusCode, (this.codes.get(log.statusCode) ?? 0) + 1);
      this.lastFailure ??= { at: log.sendAt, logId: log.id, statusCode: log.statusCode };
      if (this.streakOpen) {
        this.streak++;
        this.streakSince = log.sendAt;
      }
    } else {
      this.lastSuccess ??= { at: log.sendAt, logId: log.id };
      this.streakOpen = false;
    }
  }

  /**
   * The summary over [from, to] (epoch ms; when null: the oldest and newest attempt read).
   * `readAll`: every log of the range was read (no cap, no failure), so a streak that reaches the
   * oldest log read is complete.
   */
  summary(range: { from: number | null; to: number | null; readAll: boolean }): HealthSummary {
    const n = this.times.length;
    const failed = this.failedFlags.filter(Boolean).length;
    let newest: number | null = null;
    let oldest: number | null = null;
    for (const time of this.times) {
      if (newest === null || time > newest) newest = time;
      if (oldest === null || time < oldest) oldest = time;
    }
    const from = range.from ?? oldest;
    const to = range.to ?? newest;
    let bucketMs = 0;
    const buckets: HealthBucket[] = [];
    if (from !== null && to !== null && to >= from) {
      bucketMs = bucketSizeFor(Math.max(to - from, 60_000));
      const first = Math.floor(from / bucketMs) * bucketMs;
      const count = Math.floor((to - first) / bucketMs) + 1;
      for (let i = 0; i < count; i++)
        buckets.push({ start: new Date(first + i * bucketMs).toISOString(), success: 0, failed: 0 });
      for (let i = 0; i < n; i++) {
        const bucket = buckets[Math.floor((this.times[i]! - first) / bucketMs)];
        if (!bucket) continue;
        if (this.failedFlags[i]) bucket.failed++;
        else bucket.success++;
      }
    }
    return {
      from: from === null ? null : new Date(from).toISOString(),
      to: to === null ? null : new Date(to).toISOString(),
      bucketMs,
      buckets,
      attempts: n,
      success: n - failed,
      failed,
      successRate: n === 0 ? null : Math.round(((n - failed) / n) * 1000) / 10,
      lastSuccess: this.lastSuccess,
      lastFailure: this.lastFailure,
      failingStreak:
        this.streak > 0 && this.streakSince
          ? { since: this.streakSince, length: this.streak, atLeast: this.streakOpen && !range.readAll }
          : null,
      failuresByCode: [...this.codes]
        .map(([statusCode, count]) => ({ statusCode, count }))
        .sort((a, b) => b.count - a.count || a.statusCode - b.statusCode),
    };
  }
}
