import { describe, expect, it } from "vitest";
import { formatAge, formatClock, formatSeconds } from "@/lib/domain/watching/format-age";

const NOW = Date.parse("2026-11-25T06:40:00Z");
const UTC = { timeZone: "UTC", locale: "en-GB" };

describe("formatAge", () => {
  it("reads seconds, minutes, hours and days; a time ahead is 0 s", () => {
    expect(formatAge("2026-11-25T06:39:48Z", NOW)).toBe("12 s");
    expect(formatAge("2026-11-25T06:35:59Z", NOW)).toBe("4 min");
    expect(formatAge("2026-11-25T03:00:00Z", NOW)).toBe("3 h");
    expect(formatAge("2026-11-24T06:00:00Z", NOW)).toBe("1 day");
    expect(formatAge("2026-11-20T06:00:00Z", NOW)).toBe("5 days");
    expect(formatAge("2026-11-25T06:41:00Z", NOW)).toBe("0 s");
    expect(formatSeconds(125)).toBe("2 min");
  });
});

describe("formatClock", () => {
  it("gives the time alone today, and the date before today (the year when another)", () => {
    expect(formatClock("2026-11-25T05:12:00Z", NOW, UTC)).toBe("05:12");
    expect(formatClock("2026-11-21T23:05:00Z", NOW, UTC)).toBe("21 Nov, 23:05");
    expect(formatClock("2025-12-31T23:05:00Z", NOW, UTC)).toBe("31 Dec 2025, 23:05");
  });

  it("decides 'today' on the viewer's clock, not UTC's", () => {
    // 23:30 UTC on the 24th is already the 25th in Tokyo.
    expect(formatClock("2026-11-24T23:30:00Z", NOW, { timeZone: "Asia/Tokyo", locale: "en-GB" })).toBe(
      "08:30",
    );
    expect(formatClock("2026-11-24T23:30:00Z", NOW, UTC)).toBe("24 Nov, 23:30");
  });
});
