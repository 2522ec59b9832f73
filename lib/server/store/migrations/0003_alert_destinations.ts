import type { Kysely, Migration } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("alert_destinations")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("app_id", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("label", "text", (c) => c.notNull())
      .addColumn("sealed", "text", (c) => c.notNull())
      .addColumn("target", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("alert_destinations_app").on("alert_destinations").column("app_id").execute();
    await db.schema
      .createTable("alert_deliveries")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("app_id", "text", (c) => c.notNull())
      .addColumn("destination_id", "text", (c) => c.notNull())
      .addColumn("destination_label", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("idempotency_key", "text", (c) => c.notNull())
      .addColumn("alert_kind", "text", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull())
      .addColumn("status_code", "integer")
      .addColumn("response", "text", (c) => c.notNull())
      .addColumn("error", "text")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("alert_deliveries_once", ["destination_id", "idempotency_key"])
      .execute();
    await db.schema
      .createIndex("alert_deliveries_recent")
      .on("alert_deliveries")
      .columns(["app_id", "created_at"])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable("alert_deliveries").execute();
    await db.schema.dropTable("alert_destinations").execute();
  },
};
