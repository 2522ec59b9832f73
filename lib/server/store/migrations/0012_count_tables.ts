import { sql, type Kysely, type Migration } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const migration: Migration = {
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
