import { afterEach, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/server/app-error";
import { RateLimiter, clientAddress } from "@/lib/server/http/rate-limit";

async function retryAfterOf(work: () => Promise<void>): Promise<number | undefined> {
  try {
    await work();
  } catch (error) {
    if (error instanceof AppError && error.code === "rate_limited") return error.retryAfter;
    throw error;
  }
  return undefined;
}

afterEach(() => {
  vi.useRealTimers();
});

/** Hits as if at `at` (epoch ms): the limiter reads the clock. */
function at(limiter: RateLimiter, client: string, time: number): Promise<number | undefined> {
  vi.setSystemTime(time);
  return retryAfterOf(() => limiter.hit(client));
}

describe("RateLimiter (in memory)", () => {
  it("allows `limit` hits per window per client, then 429 with the seconds left, then allows again", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const limiter = new RateLimiter(() => 3, 60_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(await at(limiter, "a", t0 + i)).toBeUndefined();
    expect(await at(limiter, "a", t0 + 15_000)).toBe(45);
    expect(await at(limiter, "b", t0 + 15_000)).toBeUndefined();
    expect(await at(limiter, "a", t0 + 60_000)).toBeUndefined();
  });

  it("has no cap over all clients: however many addresses use up their tries, another keeps all of its", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const limiter = new RateLimiter(() => 1, 60_000);
    let refused = 0;
    for (let i = 0; i < 50; i++) {
      if (await at(limiter, `10.0.0.${i}`, 5_000)) refused++;
      if (await at(limiter, `10.0.0.${i}`, 5_000)) refused++;
    }
    expect(refused).toBe(50);
    expect(await at(limiter, "192.0.2.1", 5_000)).toBeUndefined();
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
