import "server-only";
import { HOUR_MS } from "@/lib/domain/watch/hourly-counts";
import { isAppError } from "@/lib/server/app-error";
import type { StoreContext } from "@/lib/server/store/context";

/**
 * The watcher's hub calls by outcome (`ok`, or the AppError code), counted in memory and added to
 * the store's hourly counts once per tick, so every instance's calls add up in one place for
 * /metrics. A process that dies loses its last tick's calls.
 */
export class HubCallCounts {
  private counts = new Map<string, number>();

  /** Counts how `call` ends, and answers as it does. */
  async count<T>(call: Promise<T>, signal: AbortSignal): Promise<T> {
    try {
      const answer = await call;
      this.add("ok", 1);
      return answer;
    } catch (error) {
      if (!signal.aborted) this.add(isAppError(error) ? error.code : "internal", 1);
      throw error;
    }
  }

  /** Adds the calls counted so far to the store's hour of `now`, in one transaction; kept for the next try when it fails. */
  async flush(ctx: StoreContext, now = Date.now()): Promise<void> {
    if (this.counts.size === 0) return;
    const taken = this.counts;
    this.counts = new Map();
    const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
    try {
      await ctx.db.transaction().execute(async (tx) => {
        for (const [outcome, calls] of taken) {
          await tx
            .insertInto("watch_hub_calls")
            .values({ hour, outcome, calls })
            .onConflict((oc) =>
              oc
                .columns(["hour", "outcome"])
                .doUpdateSet((eb) => ({ calls: eb("watch_hub_calls.calls", "+", calls) })),
            )
            .execute();
        }
      });
    } catch (error) {
      for (const [outcome, calls] of taken) this.add(outcome, calls);
      throw error;
    }
  }

  private add(outcome: string, calls: number): void {
    this.counts.set(outcome, (this.counts.get(outcome) ?? 0) + calls);
  }
}
