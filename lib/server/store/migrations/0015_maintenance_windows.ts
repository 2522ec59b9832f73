import { sql, type Kysely, type Migration } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Migration 0015: maintenance windows, on a webhook or a whole application (webhook_id ""), each
 * a schedule as JSON (a one-off start and end, or weekly days, time, duration and zone);
 * failures sent inside one, counted per hour and status code apart from the others; and the
 * recovery of an incident told before its window, held until the window ends.
 */
export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("maintenance_windows")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("app_id", "text", (c) => c.notNull())
      .addColumn("webhook_id", "text", (c) => c.notNull())
      .addColumn("schedule", "text", (c) => c.notNull())
      .addColumn("note", "text", (c) => c.notNull())
      .addColumn("ends_at", "bigint")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("maintenance_windows_app")
      .on("maintenance_windows")
      .columns(["app_id", "webhook_id"])
      .execute();
    await db.schema
      .createTable("watch_maintenance_codes")
      .addColumn("webhook_id", "text", (c) => c.notNull())
      .addColumn("hour", "bigint", (c) => c.notNull())
      .addColumn("status_code", "integer", (c) => c.notNull())
      .addColumn("failed", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("watch_maintenance_codes_pk", ["webhook_id", "hour", "status_code"])
      .execute();
    await db.schema.alterTable("alert_incidents").addColumn("recovery_due", "bigint").execute();
    // The alert pass looks for held recoveries every few seconds: only those rows are indexed.
    await db.schema
      .createIndex("alert_incidents_recovery_due")
      .on("alert_incidents")
      .column("recovery_due")
      .where(sql.ref("recovery_due"), "is not", sql.lit(null))
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("alert_incidents_recovery_due").execute();
    await db.schema.alterTable("alert_incidents").dropColumn("recovery_due").execute();
    await db.schema.dropTable("watch_maintenance_codes").execute();
    await db.schema.dropTable("maintenance_windows").execute();
  },
};
