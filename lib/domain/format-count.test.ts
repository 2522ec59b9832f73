import { describe, expect, it } from "vitest";
import { countOf, formatCount } from "@/lib/domain/format-count";

describe("formatCount", () => {
  it("groups whole numbers as toLocaleString('en') does", () => {
    const values = [
      0, 1, 12, 123, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 123_456_789, -1, -1234, -1_000_000,
    ];
    for (let n = 1; n < Number.MAX_SAFE_INTEGER / 7; n = n * 7 + 3) values.push(n, -n);
    for (const n of values) expect(formatCount(n)).toBe(n.toLocaleString("en"));
  });

  it("leaves what is not a safe whole number to toLocaleString", () => {
    for (const n of [1.5, 1234.5678, Number.MAX_SAFE_INTEGER + 2, Number.NaN, Infinity])
      expect(formatCount(n)).toBe(n.toLocaleString("en"));
  });
});

describe("countOf", () => {
  it("says one in the singular, every other count in the plural", () => {
    expect(countOf(1, "error")).toBe("1 error");
    expect(countOf(0, "error")).toBe("0 errors");
    expect(countOf(12_345, "failure")).toBe("12,345 failures");
    expect(countOf(2, "reply", "replies")).toBe("2 replies");
  });
});
