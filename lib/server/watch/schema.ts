import "server-only";
import { sql, type Generated, type Kysely, type Migration, type MigrationProvider } from "kysely";
import type { DeliveryState } from "@/lib/domain/alerts/destinations";
import {
  alertApplicationsMigration,
  alertEngineMigration,
  alertSummaryMigration,
  type AlertEngineTables,
} from "@/lib/server/alerts/schema";
import { countTablesMigration, type CountTables } from "@/lib/server/watch/count-tables";
import { storedSignature } from "@/lib/server/watch/cursor";
import { failureIssuesMigration, type FailureIssueTables } from "@/lib/server/watch/failure-issues-schema";
import { revokedSessionsMigration } from "@/lib/server/watch/migrations/0011_revoked_sessions";

/**
 * The watch's tables, one schema for SQLite and PostgreSQL. Times are epoch milliseconds
 * (bigint), flags are 0/1 integers: the types both databases share.
 */
export interface WatchDatabase extends FailureIssueTables, AlertEngineTables, CountTables {
  watch_keys: {
    app_id: string;
    /** The application's API key, sealed (seal.ts). */
    sealed: string;
    rejected_at: number | null;
    rejected_reason: string | null;
    updated_at: number;
  };
  watches: {
    webhook_id: string;
    app_id: string;
    name: string;
    endpoint: string;
    event_type: string;
    created_at: number;
  };
  /** The watcher's state of one watched webhook: cursor, lease, latest webhook fields, summary. */
  watch_state: {
    webhook_id: string;
    /** Newest stored log of the contiguous history; null before the first page. */
    head_id: string | null;
    /** Where the backfill continues in the hub's newest-first listing; null when it is done. */
    tail_offset: number | null;
    /** Logs the backfill has read so far (against WATCH_BACKFILL's count). */
    backfill_read: Generated<number>;
    /** From this time every log is stored; null with history_complete = the whole history. */
    complete_from: number | null;
    history_complete: Generated<number>;
    active: number | null;
    number_of_errors: number | null;
    last_success_at: number | null;
    last_success_id: string | null;
    last_failure_at: number | null;
    last_failure_id: string | null;
    last_failure_code: number | null;
    streak_since: number | null;
    streak_length: Generated<number>;
    stored_logs: Generated<number>;
    /** Last poll that answered. */
    polled_at: number | null;
    next_poll_at: number;
    poll_failures: Generated<number>;
    poll_error_code: string | null;
    poll_error_message: string | null;
    poll_error_at: number | null;
    lease_owner: string | null;
    lease_until: Generated<number>;
    /** When the copy was last brought up to date with the hub, by a poll or a question. */
    copied_at: number | null;
    /** The hub's count of the webhook's logs when its newest page was last read. */
    hub_total: number | null;
    /** The application whose key a question last brought the copy up to date with. */
    copied_by: string | null;
  };
  /** The copies of webhooks nobody watches, made by questions: whose they are, and when last used. */
  log_copies: {
    webhook_id: string;
    app_id: string;
    endpoint: string;
    event_type: string;
    used_at: number;
    created_at: number;
  };
  watch_logs: {
    webhook_id: string;
    id: string;
    status: string;
    status_code: number;
    send_at: number;
    created_at: number;
    message_id: string | null;
    body: string;
    body_size: number;
    body_sha256: string;
    /** A failure's cause signature (failureCause of the kept body); null for a success. */
    signature: string | null;
  };
  /** Attempts per hour per webhook, kept with each write: the overview reads these, not the logs. */
  watch_log_hours: {
    webhook_id: string;
    hour: number;
    success: number;
    failed: number;
  };
  watch_timeline: {
    webhook_id: string;
    at: number;
    kind: "active" | "errors";
    active: number;
    number_of_errors: number;
    previous: number | null;
  };
  /** Sessions signed out before they expired, until the cookie would have (shared-state/database-revocations.ts). */
  revoked_sessions: {
    session_id: string;
    until: number;
  };
  /** Where an application's alerts go; `sealed` holds the secret parts (seal.ts), `target` their masked form. */
  alert_destinations: {
    id: string;
    app_id: string;
    kind: "slack" | "webhook" | "email";
    label: string;
    sealed: string;
    target: string;
    created_at: number;
  };
  /** One alert's delivery to one destination: created before the first attempt, updated after each. */
  alert_deliveries: {
    id: string;
    app_id: string;
    destination_id: string;
    destination_label: string;
    kind: "slack" | "webhook" | "email";
    idempotency_key: string;
    alert_kind: string;
    title: string;
    state: DeliveryState;
    attempts: number;
    status_code: number | null;
    response: string;
    error: string | null;
    created_at: number;
    updated_at: number;
    /** The AlertMessage as JSON, kept until it is delivered or given up; null for rows from before the outbox. */
    payload: string | null;
    next_attempt_at: Generated<number>;
    lease_owner: string | null;
    lease_until: Generated<number>;
  };
}

export type WatchDb = Kysely<WatchDatabase>;

/** Kysely's `any` database type for migrations, which see the schema before it exists. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const initial: Migration = {
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

const alertDestinations: Migration = {
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

/**
 * Logs by send time within a webhook: the failure issues' success runs and the store's questions
 * read the logs after a moment, which without it scan every stored log of the webhook on each write.
 */
const logsBySendTime: Migration = {
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

/**
 * Logs by id and by message id across webhooks: Find across looks a pasted id up in every watched
 * webhook at once. The message index leads with the message id, so it still answers one webhook's
 * Find (webhook_id and message_id) and replaces the (webhook_id, message_id) one.
 */
const logsById: Migration = {
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

/** Stored failures read at once when their signatures are first written. */
const SIGN_BATCH = 1000;

/**
 * Each stored failure's cause signature, so the store answers "this failure issue's deliveries"
 * with an index instead of reading every body of its status code. Failures stored before it are
 * signed here, from their kept bodies, as recordFailures grouped them.
 */
const logSignatures: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable("watch_logs").addColumn("signature", "text").execute();
    for (;;) {
      const batch: Array<{ webhook_id: string; id: string; status_code: number; body: string }> = await db
        .selectFrom("watch_logs")
        .select(["webhook_id", "id", "status_code", "body"])
        .where("status", "!=", "Success")
        .where("signature", "is", null)
        .limit(SIGN_BATCH)
        .execute();
      for (const log of batch) {
        await db
          .updateTable("watch_logs")
          .set({ signature: storedSignature("Failed", log.status_code, log.body) })
          .where("webhook_id", "=", log.webhook_id)
          .where("id", "=", log.id)
          .execute();
      }
      if (batch.length < SIGN_BATCH) break;
    }
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

/**
 * Find across reaches a log id through the primary key, one probe per watched webhook of the
 * session's applications (find-across.ts): the index on the id alone was one more random insert
 * for every stored log.
 */
const logsByIdThroughKey: Migration = {
  async up(db: AnyDb) {
    await db.schema.dropIndex("watch_logs_id").execute();
  },
  async down(db: AnyDb) {
    await db.schema.createIndex("watch_logs_id").on("watch_logs").column("id").execute();
  },
};

/**
 * Copies of unwatched webhooks' histories, made by the questions asked of them: they share the
 * watched webhooks' tables (watch_state for the cursor and lease, watch_logs), and log_copies says
 * whose each one is and when it was last used, so that it expires.
 */
const logCopies: Migration = {
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

/** The migrations, in code (no files to ship): Kysely's Migrator runs them in name order. */
export const migrations: MigrationProvider = {
  getMigrations: async () => ({
    "0001_watch": initial,
    "0002_failure_issues": failureIssuesMigration,
    "0003_alert_destinations": alertDestinations,
    "0004_alert_engine": alertEngineMigration,
    "0005_alert_summaries": alertSummaryMigration,
    "0006_logs_by_send_time": logsBySendTime,
    "0007_logs_by_id": logsById,
    "0008_log_signatures": logSignatures,
    "0009_logs_by_id_through_key": logsByIdThroughKey,
    "0010_alert_application_names": alertApplicationsMigration,
    "0011_revoked_sessions": revokedSessionsMigration,
    "0012_count_tables": countTablesMigration,
    "0013_log_copies": logCopies,
  }),
};

/** True when a query answered: used to tell "the database is back" after an outage. */
export async function ping(db: WatchDb): Promise<void> {
  await sql`select 1`.execute(db);
}
