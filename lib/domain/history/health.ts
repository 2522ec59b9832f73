/**
 * The shape of Delivery health, as the store computes it (lib/server/history/questions.ts). The
 * failing streak is a fact about the webhook, not the window: it is followed past the window's start.
 */

/** The quick picks of the "Delivery health" window. */
export const HEALTH_WINDOWS = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000 } as const;
export type HealthWindow = keyof typeof HEALTH_WINDOWS;
export const DEFAULT_HEALTH_WINDOW: HealthWindow = "24h";

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
  /** The streak goes on past what the copy holds: it began before `since`, and `length` is a lower bound. */
  atLeast: boolean;
  /** The streak's failures by status code, most frequent first. */
  codes: CodeCount[];
}
