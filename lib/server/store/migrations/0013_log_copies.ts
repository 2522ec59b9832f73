import { sql, type Kysely, type Migration } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Copies of unwatched webhooks' histories, made by the questions asked of them: they share the
 * watched webhooks' tables (watch_state for the cursor and lease, watch_logs), and log_copies says
 * whose each one is and when it was last used, so that it expires.
 */
export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("log_copies")
      .addColumn("webhook_id", "text", (c) => c.primaryKey())
      .addColumn("app_id", "text", (c) => c.notNull())
      .addColumn("endpoint", "text", (c) => c.notNull())
      .addColumn("event_type", "text", (c) => c.notNull())
      .addColumn("used_at", "bigint", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.alterTable("watch_state").addColumn("copied_at", "bigint").execute();
    await db.schema.alterTable("watch_state").addColumn("hub_total", "bigint").execute();
    await db.schema.alterTable("watch_state").addColumn("copied_by", "text").execute();
    await db
      .updateTable("watch_state")
      .set({ copied_at: sql`polled_at` })
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable("watch_state").dropColumn("copied_by").execute();
    await db.schema.alterTable("watch_state").dropColumn("hub_total").execute();
    await db.schema.alterTable("watch_state").dropColumn("copied_at").execute();
    await db.schema.dropTable("log_copies").execute();
  },
};
