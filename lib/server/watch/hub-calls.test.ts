import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/server/app-error";
import type { StoreContext } from "@/lib/server/store/context";
import { HubCallCounts } from "@/lib/server/watch/hub-calls";
import { watchDatabases } from "@/tests/support/watch-databases";

const databases = watchDatabases();
const HOUR = 3_600_000;
const NOW = Math.floor(Date.now() / HOUR) * HOUR + 1000;

async function stored(ctx: StoreContext) {
  const rows = await ctx.db
    .selectFrom("watch_hub_calls")
    .selectAll()
    .orderBy("hour")
    .orderBy("outcome")
    .execute();
  return rows.map((row) => [Number(row.hour) - NOW + 1000, row.outcome, row.calls]);
}

describe("HubCallCounts", () => {
  it("counts calls by outcome, adds them to the store's hour, and keeps them when the store fails", async () => {
    const counts = new HubCallCounts();
    const live = new AbortController();
    const stopped = new AbortController();
    stopped.abort();
    await expect(counts.count(Promise.resolve(42), live.signal)).resolves.toBe(42);
    const failures = [
      new AppError("rate_limited", "Too many requests.", { retryAfter: 1 }),
      new AppError("upstream_timeout", "The hub did not answer in time."),
      new Error("a bug"),
    ];
    for (const error of failures)
      await expect(counts.count(Promise.reject(error), live.signal)).rejects.toBe(error);
    // Cut short by the watcher stopping: not the hub's doing, not counted.
    await counts.count(Promise.reject(new Error("aborted")), stopped.signal).catch(() => undefined);

    const down = await databases.fresh("sqlite");
    await down.db.destroy();
    await expect(counts.flush(down, NOW)).rejects.toThrow();

    const ctx = await databases.fresh("sqlite");
    await counts.flush(ctx, NOW);
    await counts.count(Promise.resolve(1), live.signal);
    await counts.flush(ctx, NOW + 60_000);
    await counts.count(Promise.resolve(1), live.signal);
    await counts.flush(ctx, NOW + HOUR);
    await counts.flush(ctx, NOW + HOUR);
    expect(await stored(ctx)).toEqual([
      [0, "internal", 1],
      [0, "ok", 2],
      [0, "rate_limited", 1],
      [0, "upstream_timeout", 1],
      [HOUR, "ok", 1],
    ]);
  });
});
