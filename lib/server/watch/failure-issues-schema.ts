import "server-only";
import type { Kysely, Migration } from "kysely";
import { DEFAULT_RESOLVE_AFTER, type IssueState } from "@/lib/domain/watch/failure-issue";
import { rebuildIssues } from "@/lib/server/watch/failure-issues";

/** The failure issues' tables (migration 0002): part of WatchDatabase. Times are epoch milliseconds. */
export interface FailureIssueTables {
  failure_issues: {
    id: string;
    webhook_id: string;
    status_code: number;
    /** failure-signature.ts: with webhook_id and status_code, the issue's key. */
    signature: string;
    signature_text: string;
    failures: number;
    first_failure_at: number;
    first_failure_id: string;
    last_failure_at: number;
    last_failure_id: string;
    state: IssueState;
    resolved_at: number | null;
    resolved_by: "auto" | "person" | null;
    reopened_at: number | null;
    /** The last change a person made: the name they typed, their note, when. */
    actor: string | null;
    note: string | null;
    changed_at: number | null;
    created_at: number;
  };
  /** The newest failures of each issue (ISSUE_SAMPLES), with the start of their bodies. */
  failure_issue_samples: {
    issue_id: string;
    log_id: string;
    send_at: number;
    body: string;
    body_size: number;
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const failureIssuesMigration: Migration = {
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
    // A store that already holds logs shows their issues at once, not only those of logs stored from now on.
    await rebuildIssues(db, DEFAULT_RESOLVE_AFTER);
  },
  async down(db: AnyDb) {
    await db.schema.dropTable("failure_issue_samples").execute();
    await db.schema.dropTable("failure_issues").execute();
  },
};
