/**
 * TEST ONLY. Incident rows as the alert engine writes them into `alert_incidents`, for tests that
 * show incidents without running the engine: `detail` has the engine's shape (incident-detail.ts).
 */
import { randomUUID } from "node:crypto";
import type { ConditionRule } from "@/lib/domain/alerts/conditions";
import type { IncidentDetail } from "@/lib/domain/alerts/incident-detail";
import type { AlertEngineTables } from "@/lib/server/store/schema";

export type IncidentRow = AlertEngineTables["alert_incidents"];

export interface IncidentInput {
  appId: string;
  webhookId: string;
  scope?: IncidentRow["scope"];
  openedAt: number;
  resolvedAt?: number | null;
  /** What holds: each a rule and its headline; by default one failing streak of 5 (`headline`). */
  conditions?: Array<{ rule: ConditionRule; headline: string }>;
  headline?: string;
  /** Replaces the whole detail (to test what the console does with another shape). */
  detail?: string;
}

export function incidentRow(input: IncidentInput): IncidentRow {
  const resolvedAt = input.resolvedAt ?? null;
  const scope = input.scope ?? "webhook";
  const since = input.openedAt - 60_000;
  const conditions = input.conditions ?? [
    { rule: scope === "summary" ? "summary" : "streak", headline: input.headline ?? "5 failures in a row" },
  ];
  return {
    id: `inc_${randomUUID()}`,
    app_id: input.appId,
    webhook_id: input.webhookId,
    scope,
    state: resolvedAt === null ? "firing" : "resolved",
    opened_at: input.openedAt,
    resolved_at: resolvedAt,
    detail:
      input.detail ??
      JSON.stringify({
        conditions: conditions.map(({ rule, headline }) => ({
          rule,
          headline,
          since,
          failures: 5,
          attempts: 5,
          codes: [{ code: 500, count: 5 }],
        })),
        since,
        webhook: null,
        cooldownUntil: null,
        held: null,
        told: { rules: conditions.map((c) => c.rule), streak: 5 },
        updates: 0,
        webhooks: [],
        hubFailing: false,
        recovery: null,
      } satisfies IncidentDetail),
    notified_at: input.openedAt,
    summary_id: null,
    update_due: null,
    recovery_due: null,
    updated_at: resolvedAt ?? input.openedAt,
  };
}
