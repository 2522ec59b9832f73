import "server-only";
import { sql, type Kysely, type Migration } from "kysely";
import type { IncidentScope } from "@/lib/domain/alerts/message";

/**
 * The alert engine's tables (migration 0004), part of WatchDatabase: the rules, the incidents
 * they fire, and the outbox columns of `alert_deliveries`. Times are epoch milliseconds.
 */
export interface AlertEngineTables {
  /**
   * Rule settings as JSON: the application's defaults (`webhook_id` = "", a RuleSettings) or one
   * webhook's override (a WebhookRuleOverride). See lib/domain/alerts/rules.ts.
   */
  alert_rules: {
    app_id: string;
    webhook_id: string;
    settings: string;
    updated_at: number;
  };
  /**
   * One incident: a webhook's (every condition that holds on it), an application's (the hub
   * rejects its key; webhook_id ""), or a summary of many webhooks at once (webhook_id ""),
   * firing from `opened_at` until it ends (`resolved`). At most one firing incident per
   * application, webhook and scope: the partial unique index makes that hold across instances.
   */
  alert_incidents: {
    id: string;
    app_id: string;
    webhook_id: string;
    /** What it is about (migration 0011). */
    scope: IncidentScope;
    state: "firing" | "resolved";
    opened_at: number;
    resolved_at: number | null;
    /** What holds, as JSON (lib/domain/alerts/incident-detail.ts). */
    detail: string;
    /** When its firing alert was put in the outbox, or told in a summary; null until then (held: quiet hours, snooze, cooldown). */
    notified_at: number | null;
    updated_at: number;
    /** The summary incident this one was told in (migration 0005); null when told alone or not yet. */
    summary_id: string | null;
    /** Since when an update is due to be told (it got worse; a summary gained webhooks); null when none (migration 0011). */
    update_due: number | null;
  };
  /**
   * The name people gave each application in their session (migration 0010), kept whenever a
   * session shows or uses its alerts, so real alerts say the same name as test alerts.
   */
  alert_applications: {
    app_id: string;
    name: string;
    updated_at: number;
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const alertEngineMigration: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable("alert_rules")
      .addColumn("app_id", "text", (c) => c.notNull())
      .addColumn("webhook_id", "text", (c) => c.notNull())
      .addColumn("settings", "text", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("alert_rules_pk", ["app_id", "webhook_id"])
      .execute();
    await db.schema
      .createTable("alert_incidents")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("app_id", "text", (c) => c.notNull())
      .addColumn("webhook_id", "text", (c) => c.notNull())
      .addColumn("rule", "text", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("opened_at", "bigint", (c) => c.notNull())
      .addColumn("resolved_at", "bigint")
      .addColumn("detail", "text", (c) => c.notNull())
      .addColumn("notified_at", "bigint")
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("alert_incidents_one_firing")
      .on("alert_incidents")
      .columns(["app_id", "webhook_id", "rule"])
      .unique()
      .where(sql.ref("state"), "=", sql.lit("firing"))
      .execute();
    await db.schema
      .createIndex("alert_incidents_recent")
      .on("alert_incidents")
      .columns(["app_id", "opened_at"])
      .execute();
    // The outbox: a delivery row holds its message until sent, and whoever sends it holds a lease.
    await db.schema.alterTable("alert_deliveries").addColumn("payload", "text").execute();
    await db.schema
      .alterTable("alert_deliveries")
      .addColumn("next_attempt_at", "bigint", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable("alert_deliveries").addColumn("lease_owner", "text").execute();
    await db.schema
      .alterTable("alert_deliveries")
      .addColumn("lease_until", "bigint", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex("alert_deliveries_due")
      .on("alert_deliveries")
      .columns(["state", "next_attempt_at"])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex("alert_deliveries_due").execute();
    for (const column of ["lease_until", "lease_owner", "next_attempt_at", "payload"]) {
      await db.schema.alterTable("alert_deliveries").dropColumn(column).execute();
    }
    await db.schema.dropTable("alert_incidents").execute();
    await db.schema.dropTable("alert_rules").execute();
  },
};

/**
 * Migration 0005: an incident told inside a summary names it, so the summary lists its webhooks
 * and resolves when the last of them has.
 */
export const alertSummaryMigration: Migration = {
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

/** Migration 0010: applications' names, as sessions give them, for the alerts to say. */
export const alertApplicationsMigration: Migration = {
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
