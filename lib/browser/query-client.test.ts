import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/browser/api";
import { retryDelay, shouldRetry } from "@/lib/browser/query-client";

describe("shouldRetry", () => {
  it("retries network errors and 5xx, a bounded number of times", () => {
    expect(shouldRetry(0, new ApiError(0, "network", "x"))).toBe(true);
    expect(shouldRetry(0, new ApiError(502, "upstream_error", "x"))).toBe(true);
    expect(shouldRetry(1, new ApiError(504, "upstream_timeout", "x"))).toBe(true);
    expect(shouldRetry(2, new ApiError(502, "upstream_error", "x"))).toBe(false);
    expect(shouldRetry(0, new TypeError("boom"))).toBe(true);
  });

  it("never retries a 4xx", () => {
    for (const status of [400, 401, 404, 429])
      expect(shouldRetry(0, new ApiError(status, "x", "x"))).toBe(false);
  });

  it("backs off exponentially up to a cap", () => {
    expect([0, 1, 2, 3, 4].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 8000]);
  });
});
