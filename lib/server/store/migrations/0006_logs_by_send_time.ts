import type { Kysely, Migration } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Logs by send time within a webhook: the failure issues' success runs and the store's questions
 * read the logs after a moment, which without it scan every stored log of the webhook on each write.
 */
export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createIndex("watch_logs_sent")
      .on("watch_logs")
      .columns(["webhook_id", "send_at", "id"])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("watch_logs_sent").execute();
  },
};
