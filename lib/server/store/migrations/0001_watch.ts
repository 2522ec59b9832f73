import type { Kysely, Migration } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("watch_keys")
      .addColumn("app_id", "text", (c) => c.primaryKey())
      .addColumn("sealed", "text", (c) => c.notNull())
      .addColumn("rejected_at", "bigint")
      .addColumn("rejected_reason", "text")
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("watches")
      .addColumn("webhook_id", "text", (c) => c.primaryKey())
      .addColumn("app_id", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("endpoint", "text", (c) => c.notNull())
      .addColumn("event_type", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("watches_app").on("watches").column("app_id").execute();
    await db.schema
      .createTable("watch_state")
      .addColumn("webhook_id", "text", (c) => c.primaryKey())
      .addColumn("head_id", "text")
      .addColumn("tail_offset", "integer", (c) => c.defaultTo(0))
      .addColumn("backfill_read", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("complete_from", "bigint")
      .addColumn("history_complete", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("active", "integer")
      .addColumn("number_of_errors", "integer")
      .addColumn("last_success_at", "bigint")
      .addColumn("last_success_id", "text")
      .addColumn("last_failure_at", "bigint")
      .addColumn("last_failure_id", "text")
      .addColumn("last_failure_code", "integer")
      .addColumn("streak_since", "bigint")
      .addColumn("streak_length", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("stored_logs", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("polled_at", "bigint")
      .addColumn("next_poll_at", "bigint", (c) => c.notNull().defaultTo(0))
      .addColumn("poll_failures", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("poll_error_code", "text")
      .addColumn("poll_error_message", "text")
      .addColumn("poll_error_at", "bigint")
      .addColumn("lease_owner", "text")
      .addColumn("lease_until", "bigint", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("watch_state_due").on("watch_state").columns(["next_poll_at"]).execute();
    await db.schema
      .createTable("watch_logs")
      .addColumn("webhook_id", "text", (c) => c.notNull())
      .addColumn("id", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("status_code", "integer", (c) => c.notNull())
      .addColumn("send_at", "bigint", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("message_id", "text")
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("body_size", "integer", (c) => c.notNull())
      .addColumn("body_sha256", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("watch_logs_pk", ["webhook_id", "id"])
      .execute();
    await db.schema
      .createIndex("watch_logs_listing")
      .on("watch_logs")
      .columns(["webhook_id", "created_at", "id"])
      .execute();
    await db.schema
      .createIndex("watch_logs_status")
      .on("watch_logs")
      .columns(["webhook_id", "status", "send_at"])
      .execute();
    await db.schema
      .createIndex("watch_logs_message")
      .on("watch_logs")
      .columns(["webhook_id", "message_id"])
      .execute();
    await db.schema
      .createTable("watch_log_hours")
      .addColumn("webhook_id", "text", (c) => c.notNull())
      .addColumn("hour", "bigint", (c) => c.notNull())
      .addColumn("success", "integer", (c) => c.notNull())
      .addColumn("failed", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("watch_log_hours_pk", ["webhook_id", "hour"])
      .execute();
    await db.schema
      .createTable("watch_timeline")
      .addColumn("webhook_id", "text", (c) => c.notNull())
      .addColumn("at", "bigint", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("active", "integer", (c) => c.notNull())
      .addColumn("number_of_errors", "integer", (c) => c.notNull())
      .addColumn("previous", "bigint")
      .addPrimaryKeyConstraint("watch_timeline_pk", ["webhook_id", "at", "kind"])
      .execute();
  },
  async down(db: AnyDb) {
    for (const table of [
      "watch_timeline",
      "watch_log_hours",
      "watch_logs",
      "watch_state",
      "watches",
      "watch_keys",
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
