import "server-only";
import type { StoreContext } from "@/lib/server/store/context";
import { sharedStoreContext } from "@/lib/server/store/context";
import { Outage } from "@/lib/server/shared-state/outage";

/**
 * Sign-outs in the console's own database (table `revoked_sessions`, migration 0011), for
 * consoles without Redis: every instance on the same database, and the next start, refuses a
 * signed-out cookie until it would have expired. Expired rows are pruned at each sign-out. Like
 * Redis (redis.ts), the database never stops a request: each call has a short timeout, after a
 * failure it is skipped for a moment, and the outage and the recovery are each logged once.
 */

const TIMEOUT_MS = 1000;
/** After a failed call the database is not asked again for this long (a hung one costs one timeout per pause). */
const PAUSE_AFTER_FAILURE_MS = 2000;

type Log = Pick<Console, "info" | "error">;

export class DatabaseRevocations {
  private readonly outage: Outage;

  constructor(
    private readonly context: () => Promise<StoreContext> = sharedStoreContext,
    log: Log = console,
  ) {
    this.outage = new Outage(
      log,
      {
        recovered: "[console] The console's database answers again: sign-outs are shared again.",
        down: (reason) =>
          `[console] The console's database did not answer about sign-outs (${reason}). Until it does, sign-outs are ` +
          "enforced on the instance that recorded them (they are written once it answers). Retrying in the background.",
      },
      PAUSE_AFTER_FAILURE_MS,
    );
  }

  async put(sessionId: string, until: number): Promise<boolean> {
    const written = await this.run(async ({ db }) => {
      await db.deleteFrom("revoked_sessions").where("until", "<=", Date.now()).execute();
      await db
        .insertInto("revoked_sessions")
        .values({ session_id: sessionId, until })
        .onConflict((oc) => oc.column("session_id").doUpdateSet({ until }))
        .execute();
      return true;
    });
    return written === true;
  }

  async has(sessionId: string): Promise<boolean | undefined> {
    return this.run(async ({ db }) => {
      const row = await db
        .selectFrom("revoked_sessions")
        .select("session_id")
        .where("session_id", "=", sessionId)
        .where("until", ">", Date.now())
        .executeTakeFirst();
      return row !== undefined;
    });
  }

  whenRecovered(listener: () => void): void {
    this.outage.whenRecovered(listener);
  }

  /** Runs one call with a timeout; undefined when the database is paused, failed or did not answer in time. */
  private run<T>(work: (ctx: StoreContext) => Promise<T>): Promise<T | undefined> {
    return this.outage.run(async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
        timer.unref();
      });
      try {
        return await Promise.race([this.context().then(work), timeout]);
      } finally {
        clearTimeout(timer);
      }
    });
  }
}
