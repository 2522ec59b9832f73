import type { Kysely, Migration } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Migration 0005: an incident told inside a summary names it, so the summary lists its webhooks
 * and resolves when the last of them has.
 */
export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable("alert_incidents").addColumn("summary_id", "text").execute();
    await db.schema
      .createIndex("alert_incidents_summary")
      .on("alert_incidents")
      .column("summary_id")
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("alert_incidents_summary").execute();
    await db.schema.alterTable("alert_incidents").dropColumn("summary_id").execute();
  },
};
