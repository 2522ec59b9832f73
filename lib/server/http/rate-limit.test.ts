import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/server/app-error";
import { RateLimiter, clientAddress } from "@/lib/server/http/rate-limit";

function retryAfterOf(work: () => void): number | undefined {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError && error.code === "rate_limited") return error.retryAfter;
    throw error;
  }
  return undefined;
}

describe("RateLimiter", () => {
  it("allows `limit` hits per window per client, then 429 with the seconds left, then allows again", () => {
    const limiter = new RateLimiter(() => 3, 60_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(retryAfterOf(() => limiter.hit("a", t0 + i))).toBeUndefined();
    expect(retryAfterOf(() => limiter.hit("a", t0 + 15_000))).toBe(45);
    expect(retryAfterOf(() => limiter.hit("b", t0 + 15_000))).toBeUndefined();
    expect(retryAfterOf(() => limiter.hit("a", t0 + 60_000))).toBeUndefined();
  });

  it("caps all clients together, so spoofed addresses do not escape the limit", () => {
    const limiter = new RateLimiter(() => 1, 60_000);
    let refused = 0;
    for (let i = 0; i < 50; i++) if (retryAfterOf(() => limiter.hit(`10.0.0.${i}`, 5_000))) refused++;
    expect(refused).toBe(30); // 20 × the per-client limit got through
  });

  it("keeps a bounded number of clients", () => {
    const limiter = new RateLimiter(() => 1_000_000, 60_000);
    for (let i = 0; i < 25_000; i++) limiter.hit(`c${i}`, 1);
    expect((limiter as unknown as { windows: Map<string, unknown> }).windows.size).toBeLessThanOrEqual(
      10_000,
    );
  });
});

describe("clientAddress", () => {
  it("takes the right-most X-Forwarded-For entry (the one our side added)", () => {
    expect(
      clientAddress(new Request("http://x/", { headers: { "x-forwarded-for": "1.1.1.1, 10.0.0.2" } })),
    ).toBe("10.0.0.2");
    expect(
      clientAddress(new Request("http://x/", { headers: { "x-forwarded-for": "::ffff:127.0.0.1" } })),
    ).toBe("::ffff:127.0.0.1");
    expect(clientAddress(new Request("http://x/"))).toBe("unknown");
  });
});
