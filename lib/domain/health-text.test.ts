import { describe, expect, it } from "vitest";
import { chartSummary, formatBucketLabel, streakText } from "@/lib/domain/health-text";
import type { HealthSummary } from "@/lib/domain/history/health";

const HOUR = 3_600_000;

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
    );
    expect(text).toMatch(
      /^Attempts over time, 2 bars: 5 successes and 10 failures in all\. Most failures: .*, 9 failures\.$/,
    );
  });

  it("says nothing of the worst bar when nothing failed", () => {
    expect(chartSummary(summary([{ start: "2026-01-01T00:00:00.000Z", success: 1, failed: 0 }]))).toBe(
      "Attempts over time, 1 bar: 1 success and 0 failures in all.",
    );
  });

  it("labels day buckets with the date and shorter ones with the clock", () => {
    expect(formatBucketLabel("2026-03-05T12:00:00.000Z", 86_400_000)).toMatch(/Mar/);
    expect(formatBucketLabel("2026-03-05T12:00:00.000Z", HOUR)).toMatch(/^\d\d:\d\d$/);
  });

  it("words a streak, open-ended when it runs past what was read", () => {
    expect(streakText({ since: "x", length: 1, atLeast: false, codes: [] })).toBe("1 attempt in a row");
    expect(streakText({ since: "x", length: 37, atLeast: true, codes: [] })).toBe(
      "at least 37 attempts in a row",
    );
  });
});
