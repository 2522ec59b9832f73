import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "@/lib/domain/retry-after";

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");

  it("reads delta-seconds, rounding up", () => {
    expect(parseRetryAfter("7", now)).toBe(7);
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter("1.2", now)).toBe(2);
  });

  it("reads an HTTP date, never negative", () => {
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30);
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0);
  });

  it("is null when absent or unreadable", () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter("", now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter("-5", now)).toBeNull();
  });
});
