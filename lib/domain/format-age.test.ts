import { describe, expect, it } from "vitest";
import { formatAge, formatSeconds } from "@/lib/domain/format-age";

const NOW = Date.parse("2026-11-25T06:40:00Z");

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
