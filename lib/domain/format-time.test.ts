import { describe, expect, it } from "vitest";
import { formatAgo, formatLocal, formatUtc } from "@/lib/domain/format-time";

describe("formatUtc", () => {
  it("writes exact UTC", () => {
    expect(formatUtc("2025-11-21T16:07:03Z")).toBe("2025-11-21 16:07:03 UTC");
    expect(formatUtc("2025-11-21T17:07:03.045+01:00")).toBe("2025-11-21 16:07:03.045 UTC");
  });

  it("returns what it cannot parse", () => {
    expect(formatUtc("yesterday")).toBe("yesterday");
  });
});

describe("formatLocal", () => {
  it("writes the time in the given zone", () => {
    const text = formatLocal("2025-11-21T16:07:03Z", { timeZone: "Europe/Berlin", locale: "en-GB" });
    expect(text).toContain("17:07:03");
    expect(text).toContain("2025");
  });

  it("returns what it cannot parse", () => {
    expect(formatLocal("nope")).toBe("nope");
  });
});

describe("formatAgo", () => {
  const now = Date.parse("2026-01-02T12:00:00Z");
  it("reads recent times relative to now", () => {
    expect(formatAgo("2026-01-02T11:59:30Z", now)).toBe("just now");
    expect(formatAgo("2026-01-02T11:48:00Z", now)).toBe("12 min ago");
    expect(formatAgo("2026-01-02T09:00:00Z", now)).toBe("3 h ago");
    expect(formatAgo("2026-01-01T11:00:00Z", now)).toBe("1 day ago");
    expect(formatAgo("2025-12-30T12:00:00Z", now)).toBe("3 days ago");
    expect(formatAgo("2026-01-02T12:05:00Z", now)).toBe("just now");
  });
  it("gives back what it cannot read", () => {
    expect(formatAgo("yesterday", now)).toBe("yesterday");
  });
});
