import "server-only";
import { sql, type Kysely, type Migration } from "kysely";

/**
 * Hourly counts kept beside `watch_log_hours` (migration 0012), part of WatchDatabase, so that
 * /metrics reads summaries, never the logs: failed attempts per status code, and the watcher's
 * hub calls per outcome. `hour` is the start of the hour (epoch ms), pruned with the logs.
 */
export interface CountTables {
  /** Failed attempts per webhook, hour (of `send_at`) and status code, kept with each write of logs. */
  watch_log_codes: {
    webhook_id: string;
    hour: number;
    status_code: number;
    failed: number;
  };
  /** The watcher's hub calls per hour and outcome (`ok`, or the AppError code), from every instance. */
  watch_hub_calls: {
    hour: number;
    outcome: string;
    calls: number;
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const countTablesMigration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("watch_log_codes")
      .addColumn("webhook_id", "text", (c) => c.notNull())
      .addColumn("hour", "bigint", (c) => c.notNull())
      .addColumn("status_code", "integer", (c) => c.notNull())
      .addColumn("failed", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("watch_log_codes_pk", ["webhook_id", "hour", "status_code"])
      .execute();
    await db.schema
      .createTable("watch_hub_calls")
      .addColumn("hour", "bigint", (c) => c.notNull())
      .addColumn("outcome", "text", (c) => c.notNull())
      .addColumn("calls", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("watch_hub_calls_pk", ["hour", "outcome"])
      .execute();
    // The failures already stored, counted as writeLogs counts them from now on.
    const hour = sql<number>`send_at - (send_at % 3600000)`;
    await db
      .insertInto("watch_log_codes")
      .columns(["webhook_id", "hour", "status_code", "failed"])
      .expression(
        db
          .selectFrom("watch_logs")
          .select(["webhook_id", hour.as("hour"), "status_code", (eb) => eb.fn.countAll().as("failed")])
          .where("status", "!=", "Success")
          .groupBy(["webhook_id", hour, "status_code"]),
      )
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable("watch_hub_calls").execute();
    await db.schema.dropTable("watch_log_codes").execute();
  },
};
