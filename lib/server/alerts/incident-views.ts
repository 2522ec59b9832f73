import "server-only";
import type { Selectable } from "kysely";
import { conditionsHeadline, type Condition } from "@/lib/domain/alerts/conditions";
import {
  RESOLVED_SHOWN,
  RULE_NAMES,
  type IncidentView,
  type IncidentsAnswer,
} from "@/lib/domain/alerts/incidents";
import { parseDetail, type IncidentDetail } from "@/lib/domain/alerts/incident-detail";
import type { IncidentScope } from "@/lib/domain/alerts/message";
import { webhookViewHref } from "@/lib/domain/log-view";
import { isoOrNull, toIso, type StoreContext } from "@/lib/server/store/context";
import type { StoreDatabase } from "@/lib/server/store/schema";

/**
 * The incidents of the session's applications as the console shows them: what fires (one per
 * failing webhook, with the conditions that hold on it, and one per application whose key is
 * rejected), the summaries firing, and the newest resolved ones, each with its watch's name and
 * endpoint. A detail that cannot be read shows what the incident is about rather than failing
 * the list.
 */

function readDetail(text: string): IncidentDetail | null {
  try {
    const detail = parseDetail(text);
    return detail.conditions.every((c) => typeof c.headline === "string" && c.rule in RULE_NAMES)
      ? detail
      : null;
  } catch {
    return null;
  }
}

/** What the console says of an incident whose conditions cannot be read. */
const SCOPE_HEADLINES: Record<IncidentScope, string> = {
  webhook: "This webhook is failing",
  application: "The watch cannot read this application's webhooks",
  summary: RULE_NAMES.summary,
};

/**
 * "N of M attempts failed", when the leading condition counts attempts. Conditions about no window
 * of attempts (inactive, errorsJump, silence) count none; an inactive webhook's codes are its
 * failing streak's, attempts that all failed.
 */
function countsOf(lead: Condition | undefined): IncidentView["counts"] {
  if (!lead) return null;
  if (lead.attempts > 0) return { failures: lead.failures, attempts: lead.attempts };
  const streak = lead.codes.reduce((sum, { count }) => sum + count, 0);
  return lead.rule === "inactive" && streak > 0 ? { failures: streak, attempts: streak } : null;
}

type IncidentRow = Selectable<StoreDatabase["alert_incidents"]> & {
  watch_name: string | null;
  watch_endpoint: string | null;
};

function viewOf(row: IncidentRow, applicationNames: ReadonlyMap<string, string>): IncidentView {
  const detail = readDetail(row.detail);
  const scope: IncidentScope = row.scope in SCOPE_HEADLINES ? row.scope : "webhook";
  const conditions = detail?.conditions ?? [];
  const applicationName = applicationNames.get(row.app_id) ?? row.app_id;
  const ofWebhook = scope === "webhook";
  return {
    id: row.id,
    appId: row.app_id,
    applicationName,
    webhookId: row.webhook_id,
    name: ofWebhook ? (row.watch_name ?? row.webhook_id) : applicationName,
    endpoint: row.watch_endpoint ?? "",
    scope,
    state: row.state,
    openedAt: toIso(row.opened_at),
    resolvedAt: isoOrNull(row.resolved_at),
    headline:
      (row.state === "resolved" && detail?.recovery) ||
      conditionsHeadline(conditions) ||
      SCOPE_HEADLINES[scope],
    conditions: conditions.map((c) => ({ rule: c.rule, name: RULE_NAMES[c.rule], headline: c.headline })),
    since: isoOrNull(detail?.since ?? null),
    counts: countsOf(conditions[0]),
    codes: conditions[0]?.codes ?? [],
    href: ofWebhook
      ? webhookViewHref(row.webhook_id, { app: row.app_id })
      : `/overview?failing=true&app=${encodeURIComponent(row.app_id)}`,
  };
}

function incidentsOf(ctx: StoreContext, appIds: readonly string[]) {
  return ctx.db
    .selectFrom("alert_incidents")
    .leftJoin("watches", (join) =>
      join
        .onRef("watches.webhook_id", "=", "alert_incidents.webhook_id")
        .onRef("watches.app_id", "=", "alert_incidents.app_id"),
    )
    .selectAll("alert_incidents")
    .select(["watches.name as watch_name", "watches.endpoint as watch_endpoint"])
    .where("alert_incidents.app_id", "in", appIds);
}

/**
 * Firing incidents of these applications (application-wide ones first, then the oldest first),
 * their firing summaries, and the RESOLVED_SHOWN resolved last. `applicationNames` names them by
 * the session's names.
 */
export async function listIncidents(
  ctx: StoreContext,
  applicationNames: ReadonlyMap<string, string>,
): Promise<IncidentsAnswer> {
  const appIds = [...applicationNames.keys()];
  if (appIds.length === 0) return { firing: [], summaries: [], resolved: [] };
  const [firing, resolved] = await Promise.all([
    incidentsOf(ctx, appIds)
      .where("alert_incidents.state", "=", "firing")
      .orderBy((eb) => eb.case().when("alert_incidents.webhook_id", "=", "").then(0).else(1).end())
      .orderBy("alert_incidents.opened_at", "asc")
      .orderBy("alert_incidents.id")
      .execute(),
    incidentsOf(ctx, appIds)
      .where("alert_incidents.state", "=", "resolved")
      .orderBy("alert_incidents.resolved_at", "desc")
      .orderBy("alert_incidents.id")
      .limit(RESOLVED_SHOWN)
      .execute(),
  ]);
  const views = firing.map((row) => viewOf(row, applicationNames));
  return {
    firing: views.filter((view) => view.scope !== "summary"),
    summaries: views.filter((view) => view.scope === "summary"),
    resolved: resolved.map((row) => viewOf(row, applicationNames)),
  };
}
