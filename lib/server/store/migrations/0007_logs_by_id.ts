import type { Kysely, Migration } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Logs by id and by message id across webhooks: Find across looks a pasted id up in every watched
 * webhook at once. The message index leads with the message id, so it still answers one webhook's
 * Find (webhook_id and message_id) and replaces the (webhook_id, message_id) one.
 */
export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema.createIndex("watch_logs_id").on("watch_logs").column("id").execute();
    await db.schema
      .createIndex("watch_logs_message_id")
      .on("watch_logs")
      .columns(["message_id", "webhook_id"])
      .execute();
    await db.schema.dropIndex("watch_logs_message").execute();
  },
  async down(db: AnyDb) {
    await db.schema
      .createIndex("watch_logs_message")
      .on("watch_logs")
      .columns(["webhook_id", "message_id"])
      .execute();
    await db.schema.dropIndex("watch_logs_message_id").execute();
    await db.schema.dropIndex("watch_logs_id").execute();
  },
};
