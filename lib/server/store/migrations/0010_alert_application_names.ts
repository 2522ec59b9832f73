import type { Kysely, Migration } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** Migration 0010: applications' names, as sessions give them, for the alerts to say. */
export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("alert_applications")
      .addColumn("app_id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable("alert_applications").execute();
  },
};
