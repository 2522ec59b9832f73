import type { Kysely, Migration } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The failure issues' tables. A store that held logs before them gets their issues from the
 * watcher when it starts (lib/server/watch/derived.ts), not here: a migration never runs live code.
 */
export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("failure_issues")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("webhook_id", "text", (c) => c.notNull())
      .addColumn("status_code", "integer", (c) => c.notNull())
      .addColumn("signature", "text", (c) => c.notNull())
      .addColumn("signature_text", "text", (c) => c.notNull())
      .addColumn("failures", "integer", (c) => c.notNull())
      .addColumn("first_failure_at", "bigint", (c) => c.notNull())
      .addColumn("first_failure_id", "text", (c) => c.notNull())
      .addColumn("last_failure_at", "bigint", (c) => c.notNull())
      .addColumn("last_failure_id", "text", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("resolved_at", "bigint")
      .addColumn("resolved_by", "text")
      .addColumn("reopened_at", "bigint")
      .addColumn("actor", "text")
      .addColumn("note", "text")
      .addColumn("changed_at", "bigint")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("failure_issues_cause", ["webhook_id", "status_code", "signature"])
      .execute();
    await db.schema
      .createIndex("failure_issues_state")
      .on("failure_issues")
      .columns(["webhook_id", "state"])
      .execute();
    await db.schema
      .createTable("failure_issue_samples")
      .addColumn("issue_id", "text", (c) => c.notNull())
      .addColumn("log_id", "text", (c) => c.notNull())
      .addColumn("send_at", "bigint", (c) => c.notNull())
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("body_size", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("failure_issue_samples_pk", ["issue_id", "log_id"])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable("failure_issue_samples").execute();
    await db.schema.dropTable("failure_issues").execute();
  },
};
