import { describe, expect, it } from "vitest";
import { formatAgo, formatLocal, formatRelative, formatUtc } from "@/lib/domain/format-time";

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

describe("formatRelative", () => {
  const now = Date.parse("2025-11-21T16:07:03Z");
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it("says just now under a minute, also for a clock a little ahead", () => {
    expect(formatRelative(ago(0), now)).toBe("just now");
    expect(formatRelative(ago(59_999), now)).toBe("just now");
    expect(formatRelative(ago(-30_000), now)).toBe("just now");
  });

  it("counts whole minutes, then whole hours", () => {
    expect(formatRelative(ago(60_000), now)).toBe("1 min ago");
    expect(formatRelative(ago(4 * 60_000 + 59_000), now)).toBe("4 min ago");
    expect(formatRelative(ago(59 * 60_000), now)).toBe("59 min ago");
    expect(formatRelative(ago(3_600_000), now)).toBe("1 h ago");
    expect(formatRelative(ago(23 * 3_600_000 + 59 * 60_000), now)).toBe("23 h ago");
  });

  it("gives up (absolute time) from a day old, far ahead, or unparseable", () => {
    expect(formatRelative(ago(24 * 3_600_000), now)).toBeNull();
    expect(formatRelative(ago(40 * 24 * 3_600_000), now)).toBeNull();
    expect(formatRelative(ago(-60_000), now)).toBeNull();
    expect(formatRelative("yesterday", now)).toBeNull();
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
    expect(formatAgo("2026-01-02T12:05:00Z", now)).toBe("2026-01-02T12:05:00Z");
  });
  it("gives back what it cannot read", () => {
    expect(formatAgo("yesterday", now)).toBe("yesterday");
  });
});
