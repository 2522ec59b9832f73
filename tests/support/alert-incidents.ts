/**
 * TEST ONLY. Incident rows as the alert engine writes them into `alert_incidents`, for tests that
 * show incidents without running the engine: `detail` has the engine's shape (incident-detail.ts).
 */
import { randomUUID } from "node:crypto";
import type { IncidentDetail } from "@/lib/domain/alerts/incident-detail";
import type { AlertEngineTables } from "@/lib/server/store/schema";

export type IncidentRow = AlertEngineTables["alert_incidents"];

export interface IncidentInput {
  appId: string;
  webhookId: string;
  rule?: IncidentRow["rule"];
  openedAt: number;
  resolvedAt?: number | null;
  headline?: string;
  /** Replaces the whole detail (to test what the console does with another shape). */
  detail?: string;
}

export function incidentRow(input: IncidentInput): IncidentRow {
  const resolvedAt = input.resolvedAt ?? null;
  return {
    id: `inc_${randomUUID()}`,
    app_id: input.appId,
    webhook_id: input.webhookId,
    rule: input.rule ?? "streak",
    state: resolvedAt === null ? "firing" : "resolved",
    opened_at: input.openedAt,
    resolved_at: resolvedAt,
    detail:
      input.detail ??
      JSON.stringify({
        breach: {
          headline: input.headline ?? "5 failures in a row",
          since: input.openedAt - 60_000,
          failures: 5,
          attempts: 5,
          codes: [{ code: 500, count: 5 }],
        },
        webhook: null,
        cooldownUntil: null,
        held: null,
        webhooks: [],
        hubFailing: false,
        recovery: null,
      } satisfies IncidentDetail),
    notified_at: input.openedAt,
    summary_id: null,
    updated_at: resolvedAt ?? input.openedAt,
  };
}
