import { sql, type Kysely, type Migration } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("alert_rules")
      .addColumn("app_id", "text", (c) => c.notNull())
      .addColumn("webhook_id", "text", (c) => c.notNull())
      .addColumn("settings", "text", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("alert_rules_pk", ["app_id", "webhook_id"])
      .execute();
    await db.schema
      .createTable("alert_incidents")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("app_id", "text", (c) => c.notNull())
      .addColumn("webhook_id", "text", (c) => c.notNull())
      .addColumn("rule", "text", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("opened_at", "bigint", (c) => c.notNull())
      .addColumn("resolved_at", "bigint")
      .addColumn("detail", "text", (c) => c.notNull())
      .addColumn("notified_at", "bigint")
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("alert_incidents_one_firing")
      .on("alert_incidents")
      .columns(["app_id", "webhook_id", "rule"])
      .unique()
      .where(sql.ref("state"), "=", sql.lit("firing"))
      .execute();
    await db.schema
      .createIndex("alert_incidents_recent")
      .on("alert_incidents")
      .columns(["app_id", "opened_at"])
      .execute();
    // The outbox: a delivery row holds its message until sent, and whoever sends it holds a lease.
    await db.schema.alterTable("alert_deliveries").addColumn("payload", "text").execute();
    await db.schema
      .alterTable("alert_deliveries")
      .addColumn("next_attempt_at", "bigint", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable("alert_deliveries").addColumn("lease_owner", "text").execute();
    await db.schema
      .alterTable("alert_deliveries")
      .addColumn("lease_until", "bigint", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex("alert_deliveries_due")
      .on("alert_deliveries")
      .columns(["state", "next_attempt_at"])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("alert_deliveries_due").execute();
    for (const column of ["lease_until", "lease_owner", "next_attempt_at", "payload"]) {
      await db.schema.alterTable("alert_deliveries").dropColumn(column).execute();
    }
    await db.schema.dropTable("alert_incidents").execute();
    await db.schema.dropTable("alert_rules").execute();
  },
};
