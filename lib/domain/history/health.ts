/**
 * The health of a run of deliveries (newest first, as the API lists them): attempts per time
 * bucket, success rate, last success and failure, failures by code; and the webhook's current
 * failing streak, which is a fact about the webhook, not about the window: it is followed past
 * the window's start until the success that ended it. Built one log at a time so a scan never
 * holds more than two numbers per log for it.
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
  /** The webhook's current failing streak, read past the window when it began earlier. */
  failingStreak: FailingStreak | null;
  /** Failed attempts by status code, most frequent first. */
  failuresByCode: CodeCount[];
}

export interface CodeCount {
  statusCode: number;
  count: number;
}

/** The failures in a row since the newest success, when the newest attempt failed. */
export interface FailingStreak {
  /** When the oldest failure read of the streak was sent. */
  since: string;
  length: number;
  /**
   * The streak goes on past what was read (the scan's cap, or a read that failed): it began
   * before `since`, and `length` is a lower bound.
   */
  atLeast: boolean;
  /** The streak's failures by status code, most frequent first. */
  codes: CodeCount[];
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

  /** Logs must come newest first. */
  add(log: HealthLog): void {
    const failed = log.status !== "Success";
    const time = Date.parse(log.sendAt);
    this.times.push(Number.isFinite(time) ? time : 0);
    this.failedFlags.push(failed);
    if (failed) {
      this.codes.set(log.statusCode, (this.codes.get(log.statusCode) ?? 0) + 1);
      this.lastFailure ??= { at: log.sendAt, logId: log.id, statusCode: log.statusCode };
    } else {
      this.lastSuccess ??= { at: log.sendAt, logId: log.id };
    }
  }

  /** The summary over [from, to] (epoch ms; when null: the oldest and newest attempt read). */
  summary(
    range: { from: number | null; to: number | null },
    failingStreak: FailingStreak | null,
  ): HealthSummary {
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
      failingStreak,
      failuresByCode: byCount(this.codes),
    };
  }
}

/** Counts by status code, most frequent first. */
function byCount(codes: Map<number, number>): CodeCount[] {
  return [...codes]
    .map(([statusCode, count]) => ({ statusCode, count }))
    .sort((a, b) => b.count - a.count || a.statusCode - b.statusCode);
}

/**
 * The webhook's current failing streak, from logs given newest first (all of them, whatever a
 * question filters): it grows with each failure until the first success, which settles it.
 */
export class StreakBuilder {
  private length = 0;
  private since: string | null = null;
  private ended = false;
  private readonly codes = new Map<number, number>();

  add(log: HealthLog): void {
    if (this.ended) return;
    if (log.status === "Success") {
      this.ended = true;
      return;
    }
    this.length++;
    this.since = log.sendAt;
    this.codes.set(log.statusCode, (this.codes.get(log.statusCode) ?? 0) + 1);
  }

  /** A success was read: the streak is known whole, and older logs do not change it. */
  get settled(): boolean {
    return this.ended;
  }

  /**
   * The streak, or null when the newest attempt read succeeded (or nothing was read).
   * `readToStart`: the history was read to its oldest log, so a streak reaching it began there.
   */
  result(readToStart: boolean): FailingStreak | null {
    if (this.length === 0 || this.since === null) return null;
    return {
      since: this.since,
      length: this.length,
      atLeast: !this.ended && !readToStart,
      codes: byCount(this.codes),
    };
  }
}
