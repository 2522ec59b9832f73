import { describe, expect, it } from "vitest";
import type { TimeStyle } from "@/lib/domain/format-time";
import {
  chartSummary,
  formatBucketLabel,
  formatBucketRange,
  streakCodesText,
  streakText,
} from "@/lib/domain/health-text";
import type { HealthSummary } from "@/lib/domain/history/health";

const HOUR = 3_600_000;
const GB: TimeStyle = { locale: "en-GB", timeZone: "Europe/Berlin" };
const US: TimeStyle = { locale: "en-US", timeZone: "America/New_York" };

function summary(buckets: HealthSummary["buckets"]): HealthSummary {
  const success = buckets.reduce((n, b) => n + b.success, 0);
  const failed = buckets.reduce((n, b) => n + b.failed, 0);
  return {
    from: buckets[0]?.start ?? null,
    to: buckets.at(-1)?.start ?? null,
    bucketMs: HOUR,
    buckets,
    attempts: success + failed,
    success,
    failed,
    successRate: null,
    lastSuccess: null,
    lastFailure: null,
    failingStreak: null,
    failuresByCode: [],
  };
}

describe("health text", () => {
  it("summarises the chart with totals and the worst bar", () => {
    const text = chartSummary(
      summary([
        { start: "2026-01-01T00:00:00.000Z", success: 5, failed: 1 },
        { start: "2026-01-01T01:00:00.000Z", success: 0, failed: 9 },
      ]),
      GB,
    );
    expect(text).toBe(
      "Attempts over time, 2 bars: 5 successes and 10 failures in all. Most failures: 1 Jan, 02:00–03:00, 9 failures.",
    );
  });

  it("says nothing of the worst bar when nothing failed", () => {
    expect(chartSummary(summary([{ start: "2026-01-01T00:00:00.000Z", success: 1, failed: 0 }]), GB)).toBe(
      "Attempts over time, 1 bar: 1 success and 0 failures in all.",
    );
  });

  it.each([
    { style: GB, dayLabel: "5 Mar", hourLabel: "13:00", dayRange: "5 Mar", hourRange: "5 Mar, 13:00–14:00" },
    {
      style: US,
      dayLabel: "Mar 5",
      hourLabel: "07:00 AM",
      dayRange: "Mar 5",
      hourRange: "Mar 5, 07:00 AM–08:00 AM",
    },
  ])(
    "$style.locale: labels and ranges of bars in the console's short form",
    ({ style, dayLabel, hourLabel, dayRange, hourRange }) => {
      const start = "2026-03-05T12:00:00.000Z";
      expect(formatBucketLabel(start, 86_400_000, style)).toBe(dayLabel);
      expect(formatBucketLabel(start, HOUR, style)).toBe(hourLabel);
      expect(formatBucketRange(start, 86_400_000, style)).toBe(dayRange);
      expect(formatBucketRange(start, HOUR, style)).toBe(hourRange);
    },
  );

  it("words a streak, open-ended when it runs past what was read", () => {
    expect(streakText({ since: "x", length: 1, atLeast: false, codes: [] })).toBe("1 attempt in a row");
    expect(streakText({ since: "x", length: 37, atLeast: true, codes: [] })).toBe(
      "at least 37 attempts in a row",
    );
  });

  it("names the codes of a streak", () => {
    const codes = [
      { statusCode: 500, count: 1200 },
      { statusCode: 0, count: 3 },
    ];
    expect(streakCodesText({ since: "x", length: 1203, atLeast: false, codes })).toBe(
      "500 × 1,200, No connection × 3",
    );
  });
});
