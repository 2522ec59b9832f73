import type { Kysely, Migration } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Each stored failure's cause signature, so the store answers "this failure issue's deliveries"
 * with an index instead of reading every body of its status code. Failures stored before it are
 * signed by the watcher when it starts (lib/server/watch/derived.ts), not here: a migration never
 * runs live code.
 */
export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable("watch_logs").addColumn("signature", "text").execute();
    await db.schema
      .createIndex("watch_logs_cause")
      .on("watch_logs")
      .columns(["webhook_id", "status_code", "signature"])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("watch_logs_cause").execute();
    await db.schema.alterTable("watch_logs").dropColumn("signature").execute();
  },
};
