import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/server/app-error";
import { appErrorOf } from "@/tests/support/app-error-of";
import { RATE_LIMIT_STRIKES, RETRIES, withRetry } from "@/lib/server/history/retry";

const limited = (retryAfter?: number) =>
  new AppError("rate_limited", "The Messaging Hub is limiting requests.", { retryAfter });
const failed = () => new AppError("upstream_error", "The Messaging Hub failed with HTTP 503.");

/** A read that throws each of `errors` in turn, then answers "ok"; `at` records when each attempt ran. */
function script(errors: AppError[]) {
  const at: number[] = [];
  const read = vi.fn(async () => {
    at.push(Date.now());
    const error = errors[at.length - 1];
    if (error) throw error;
    return "ok";
  });
  return { read, at };
}

describe("retry policy", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(Math, "random").mockReturnValue(0);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("waits a 429's Retry-After, then tries again", async () => {
    const { read, at } = script([limited(3)]);
    const done = withRetry(read, { signal: new AbortController().signal });
    await vi.advanceTimersByTimeAsync(2_999);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(done).resolves.toBe("ok");
    expect(at[1]! - at[0]!).toBe(3_000);
  });

  it("hands a 429's wait to the caller's waitOut when given", async () => {
    const { read } = script([limited(2)]);
    const waitOut = vi.fn(async () => {});
    await expect(withRetry(read, { signal: new AbortController().signal, waitOut })).resolves.toBe("ok");
    expect(waitOut).toHaveBeenCalledWith(2, expect.any(AbortSignal));
  });

  it("backs off a 5xx exponentially, RETRIES times, then throws it", async () => {
    const { read, at } = script(Array.from({ length: RETRIES + 1 }, failed));
    const done = appErrorOf(() => withRetry(read, { signal: new AbortController().signal }));
    await vi.advanceTimersByTimeAsync(10_000);
    expect((await done).code).toBe("upstream_error");
    expect(read).toHaveBeenCalledTimes(RETRIES + 1);
    expect(at.slice(1).map((time, i) => time - at[i]!)).toEqual([250, 500, 1000]);
  });

  it("a 429 uses none of the 5xx retries", async () => {
    const { read } = script([failed(), limited(1), failed(), failed()]);
    const done = withRetry(read, { signal: new AbortController().signal });
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(done).resolves.toBe("ok");
  });

  it("gives up on a Retry-After too long to wait, and on a 429 that keeps coming", async () => {
    const long = script([limited(120)]);
    expect(
      (await appErrorOf(() => withRetry(long.read, { signal: new AbortController().signal }))).code,
    ).toBe("rate_limited");
    expect(long.read).toHaveBeenCalledTimes(1);
    const again = script(Array.from({ length: RATE_LIMIT_STRIKES + 1 }, () => limited(1)));
    const done = appErrorOf(() => withRetry(again.read, { signal: new AbortController().signal }));
    await vi.advanceTimersByTimeAsync(60_000);
    expect((await done).code).toBe("rate_limited");
    expect(again.read).toHaveBeenCalledTimes(RATE_LIMIT_STRIKES + 1);
  });

  it("throws anything else at once", async () => {
    const { read } = script([new AppError("not_found", "No webhook.")]);
    expect((await appErrorOf(() => withRetry(read, { signal: new AbortController().signal }))).code).toBe(
      "not_found",
    );
    expect(read).toHaveBeenCalledTimes(1);
  });

  it("stops waiting when the signal aborts, with the cancelled error", async () => {
    const controller = new AbortController();
    const { read } = script([failed(), failed()]);
    const done = appErrorOf(() => withRetry(read, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    const error = await done;
    expect(error.message).toContain("cancelled");
    expect(read).toHaveBeenCalledTimes(1);
  });
});
