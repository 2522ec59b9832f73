import { describe, expect, it } from "vitest";
import { HOUR_MS, firstHourOf, hourlyCounts, total } from "@/lib/domain/watch/hourly-counts";

const NOW = Date.parse("2026-11-25T12:34:56.000Z");
const FIRST = Date.parse("2026-11-24T13:00:00.000Z");

describe("firstHourOf", () => {
  it("is the start of the hour 23 hours before the one holding now", () => {
    expect(firstHourOf(NOW)).toBe(FIRST);
    expect(firstHourOf(Date.parse("2026-11-25T12:00:00.000Z"))).toBe(FIRST);
  });
});

describe("hourlyCounts", () => {
  it("gives 24 counts of each kind from the first hour, the current hour last", () => {
    const counts = hourlyCounts(FIRST, [
      { hour: FIRST, success: 3, failed: 1 },
      { hour: FIRST + 23 * HOUR_MS, success: 0, failed: 2 },
    ]);
    expect(counts.from).toBe("2026-11-24T13:00:00.000Z");
    expect(counts.success).toHaveLength(24);
    expect(counts.failed).toHaveLength(24);
    expect(counts.success[0]).toBe(3);
    expect(counts.failed[0]).toBe(1);
    expect(counts.failed[23]).toBe(2);
    expect(total(counts.success)).toBe(3);
    expect(total(counts.failed)).toBe(3);
  });

  it("sums counts given twice for one hour", () => {
    const counts = hourlyCounts(FIRST, [
      { hour: FIRST + 5 * HOUR_MS, success: 1, failed: 0 },
      { hour: FIRST + 5 * HOUR_MS, success: 2, failed: 4 },
    ]);
    expect([counts.success[5], counts.failed[5]]).toEqual([3, 4]);
  });

  it("leaves out hours before the first, after the current one, or off an hour's start", () => {
    const counts = hourlyCounts(FIRST, [
      { hour: FIRST - HOUR_MS, success: 7, failed: 7 },
      { hour: FIRST + 24 * HOUR_MS, success: 7, failed: 7 },
      { hour: FIRST + HOUR_MS / 2, success: 7, failed: 7 },
    ]);
    expect(total(counts.success) + total(counts.failed)).toBe(0);
  });

  it("is all zeros without stored hours", () => {
    expect(hourlyCounts(FIRST, [])).toEqual({
      from: "2026-11-24T13:00:00.000Z",
      success: new Array(24).fill(0),
      failed: new Array(24).fill(0),
    });
  });
});
