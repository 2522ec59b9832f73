/**
 * Words and labels of the Delivery health region: bucket labels, the chart's text alternative,
 * the failing streak. Times are shown in the viewer's time zone (the region renders after mount).
 */
import type { FailingStreak, HealthSummary } from "@/lib/domain/history/health";
import { formatCount } from "@/lib/domain/format-count";
import { statusCodeLabel } from "@/lib/domain/reason-phrase";

const DAY_MS = 86_400_000;

function two(value: number): string {
  return String(value).padStart(2, "0");
}

/** `09:12`, local time. */
export function formatClock(iso: string): string {
  const date = new Date(iso);
  return `${two(date.getHours())}:${two(date.getMinutes())}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `21 Nov`, local date. Without Intl: toLocaleDateString builds a formatter per call (the chart's 24 labels took 30 ms). */
function formatDay(iso: string): string {
  const date = new Date(iso);
  return `${date.getDate()} ${MONTHS[date.getMonth()]}`;
}

/** An axis label for a bucket: the clock for buckets under a day, else the date. */
export function formatBucketLabel(start: string, bucketMs: number): string {
  return bucketMs >= DAY_MS ? formatDay(start) : formatClock(start);
}

/** `21 Nov 09:00–10:00` (local), what a bucket covers. */
export function formatBucketRange(start: string, bucketMs: number): string {
  const end = new Date(Date.parse(start) + bucketMs).toISOString();
  if (bucketMs >= DAY_MS) return formatDay(start);
  return `${formatDay(start)} ${formatClock(start)}–${formatClock(end)}`;
}

const count = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** The chart's text alternative: what it shows, in one sentence. */
export function chartSummary(summary: HealthSummary): string {
  const busiest = summary.buckets.reduce<HealthSummary["buckets"][number] | null>(
    (best, bucket) => (!best || bucket.failed > best.failed ? bucket : best),
    null,
  );
  const worst =
    busiest && busiest.failed > 0
      ? ` Most failures: ${formatBucketRange(busiest.start, summary.bucketMs)}, ${count(busiest.failed, "failure", "failures")}.`
      : "";
  return (
    `Attempts over time, ${count(summary.buckets.length, "bar", "bars")}: ` +
    `${count(summary.success, "success", "successes")} and ${count(summary.failed, "failure", "failures")} in all.${worst}`
  );
}

/**
 * A moment in the viewer's zone, as short as stays unambiguous on `now`'s day: `09:12` today,
 * `23 Nov 19:54` another day of the year, `23 Nov 2025 19:54` another year.
 */
export function formatMoment(iso: string, now: number): string {
  const date = new Date(iso);
  const today = new Date(now);
  if (date.toDateString() === today.toDateString()) return formatClock(iso);
  const year = date.getFullYear() === today.getFullYear() ? "" : ` ${date.getFullYear()}`;
  return `${formatDay(iso)}${year} ${formatClock(iso)}`;
}

/**
 * When the streak began, after "Failing since": `04:17`, `24 Nov 19:54`, or `before 24 Nov 19:54`
 * when the scan stopped (its cap) before reaching the streak's start.
 */
export function streakSinceText(streak: FailingStreak, now: number): string {
  return `${streak.atLeast ? "before " : ""}${formatMoment(streak.since, now)}`;
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
