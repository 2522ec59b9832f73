import { describe, expect, it } from "vitest";
import {
  chartSummary,
  formatBucketLabel,
  formatMoment,
  streakCodesText,
  streakSinceText,
  streakText,
} from "@/lib/domain/health-text";
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

  it("gives a streak's start the date whenever it is not today, in the viewer's zone", () => {
    const now = new Date(2026, 10, 25, 4, 13).getTime();
    expect(formatMoment(new Date(2026, 10, 25, 4, 10).toISOString(), now)).toBe("04:10");
    // Yesterday's 04:17 is not "04:17", which would read as a time 4 minutes ahead.
    expect(formatMoment(new Date(2026, 10, 24, 4, 17).toISOString(), now)).toBe("24 Nov 04:17");
    expect(formatMoment(new Date(2025, 11, 30, 19, 54).toISOString(), now)).toBe("30 Dec 2025 19:54");
  });

  it("reads the day in the viewer's zone, not in UTC", () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/Sao_Paulo";
    try {
      // 01:30 UTC on the 25th is 22:30 on the 24th in São Paulo (UTC-3), where it is now the 25th.
      expect(formatMoment("2026-11-25T01:30:00.000Z", Date.parse("2026-11-25T12:00:00.000Z"))).toBe(
        "24 Nov 22:30",
      );
      expect(formatMoment("2026-11-25T04:30:00.000Z", Date.parse("2026-11-25T12:00:00.000Z"))).toBe("01:30");
    } finally {
      process.env.TZ = zone;
    }
  });

  it("says 'before' when the scan's cap came before the streak's start, and names its codes", () => {
    const now = new Date(2026, 10, 25, 12, 0).getTime();
    const since = new Date(2026, 10, 23, 19, 54).toISOString();
    const codes = [
      { statusCode: 500, count: 1200 },
      { statusCode: 0, count: 3 },
    ];
    expect(streakSinceText({ since, length: 20, atLeast: false, codes }, now)).toBe("23 Nov 19:54");
    expect(streakSinceText({ since, length: 20_000, atLeast: true, codes }, now)).toBe("before 23 Nov 19:54");
    expect(streakCodesText({ since, length: 1203, atLeast: false, codes })).toBe(
      "500 × 1,200, No connection × 3",
    );
  });
});
