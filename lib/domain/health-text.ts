/**
 * Words and labels of the Delivery health region: bucket labels, the chart's text alternative,
 * the failing streak's words. Times are written as everywhere (format-time.ts), in the viewer's locale and
 * zone unless a style says otherwise.
 */
import type { FailingStreak, HealthSummary } from "@/lib/domain/history/health";
import { formatCount } from "@/lib/domain/format-count";
import { formatClock, formatDay, formatDayClock, type TimeStyle } from "@/lib/domain/format-time";
import { statusCodeLabel } from "@/lib/domain/reason-phrase";

const DAY_MS = 86_400_000;

/** An axis label for a bucket: the clock for buckets under a day, else the day. */
export function formatBucketLabel(start: string, bucketMs: number, style: TimeStyle): string {
  return bucketMs >= DAY_MS ? formatDay(start, style) : formatClock(start, style);
}

/** What a bucket covers: `21 Nov, 09:00–10:00`, or the day alone for a day's bucket. */
export function formatBucketRange(start: string, bucketMs: number, style: TimeStyle): string {
  if (bucketMs >= DAY_MS) return formatDay(start, style);
  const end = new Date(Date.parse(start) + bucketMs).toISOString();
  return `${formatDayClock(start, style)}–${formatClock(end, style)}`;
}

const count = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** The chart's text alternative: what it shows, in one sentence. */
export function chartSummary(summary: HealthSummary, style: TimeStyle): string {
  const busiest = summary.buckets.reduce<HealthSummary["buckets"][number] | null>(
    (best, bucket) => (!best || bucket.failed > best.failed ? bucket : best),
    null,
  );
  const worst =
    busiest && busiest.failed > 0
      ? ` Most failures: ${formatBucketRange(busiest.start, summary.bucketMs, style)}, ${count(busiest.failed, "failure", "failures")}.`
      : "";
  return (
    `Attempts over time, ${count(summary.buckets.length, "bar", "bars")}: ` +
    `${count(summary.success, "success", "successes")} and ${count(summary.failed, "failure", "failures")} in all.${worst}`
  );
}

/** "37 attempts in a row" (or "at least 37…" when the run goes past what was read). */
export function streakText(streak: FailingStreak): string {
  return `${streak.atLeast ? "at least " : ""}${count(streak.length, "attempt", "attempts")} in a row`;
}

/** The streak's codes: `500 × 30, 503 × 5, No connection × 2`. */
export function streakCodesText(streak: FailingStreak): string {
  return streak.codes
    .map(({ statusCode, count }) => `${statusCodeLabel(statusCode)} × ${formatCount(count)}`)
    .join(", ");
}
