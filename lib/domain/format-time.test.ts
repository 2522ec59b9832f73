import { describe, expect, it } from "vitest";
import { formatLocal, formatUtc } from "@/lib/domain/format-time";

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
