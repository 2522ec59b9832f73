import "server-only";
import type { Generated, Kysely } from "kysely";
import type { DeliveryState, DestinationKind } from "@/lib/domain/alerts/destinations";
import type { IncidentScope } from "@/lib/domain/alerts/message";
import type { IssueState } from "@/lib/domain/watch/failure-issue";

/**
 * The console's tables, one schema for SQLite and PostgreSQL: watches and the copies of webhooks'
 * histories (lib/server/watch, lib/server/history), failure issues, alerts, the counts /metrics
 * reads, sign-outs. Times are epoch milliseconds (bigint), flags are 0/1 integers: the types both
 * databases share. Their migrations are lib/server/store/migrations/.
 */
export interface StoreDatabase extends FailureIssueTables, AlertEngineTables, CountTables, MaintenanceTables {
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
    kind: DestinationKind;
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
    kind: DestinationKind;
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

export type StoreDb = Kysely<StoreDatabase>;

/** The failure issues' tables (migration 0002). Times are epoch milliseconds. */
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

/**
 * The alert engine's tables (migration 0004), part of StoreDatabase: the rules, the incidents
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
    /** What it is about (migration 0014). */
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
    /** Since when an update is due to be told (it got worse; a summary gained webhooks); null when none (migration 0014). */
    update_due: number | null;
    /**
     * Resolved during a maintenance window after its alert went out: since when its recovery
     * notice waits for the window to end; null when none waits (migration 0015).
     */
    recovery_due: number | null;
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

/**
 * Hourly counts kept beside `watch_log_hours` (migration 0012), part of StoreDatabase, so that
 * /metrics reads summaries, never the logs: failed attempts per status code, and the watcher's
 * hub calls per outcome. `hour` is the start of the hour (epoch ms), pruned with the logs.
 */
export interface CountTables {
  /** Failed attempts per webhook, hour (of `send_at`) and status code, kept with each write of logs. */
  watch_log_codes: {
    webhook_id: string;
    hour: number;
    status_code: number;
    failed: number;
  };
  /**
   * Failed attempts sent inside a maintenance window (migration 0015), per webhook, hour and
   * status code: counted with each write of logs, a part of `watch_log_codes` set apart.
   */
  watch_maintenance_codes: {
    webhook_id: string;
    hour: number;
    status_code: number;
    failed: number;
  };
  /** The watcher's hub calls per hour and outcome (`ok`, or the AppError code), from every instance. */
  watch_hub_calls: {
    hour: number;
    outcome: string;
    calls: number;
  };
}

/** Maintenance windows (migration 0015), part of StoreDatabase. Times are epoch milliseconds. */
export interface MaintenanceTables {
  /** A window on a webhook, or on its whole application (webhook_id ""); lib/domain/maintenance/windows.ts. */
  maintenance_windows: {
    id: string;
    app_id: string;
    webhook_id: string;
    /** The WindowSchedule as JSON. */
    schedule: string;
    /** What people wrote about it ("Deploy of v2.3"); "" when nothing. */
    note: string;
    /** A one-off window's end, for pruning it with the logs it marked; null for a weekly one. */
    ends_at: number | null;
    created_at: number;
  };
}
