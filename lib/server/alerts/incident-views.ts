import "server-only";
import type { Selectable } from "kysely";
import {
  RESOLVED_SHOWN,
  RULE_NAMES,
  type IncidentRule,
  type IncidentView,
  type IncidentsAnswer,
} from "@/lib/domain/alerts/incidents";
import { parseDetail, type IncidentDetail } from "@/lib/domain/alerts/incident-detail";
import { webhookViewHref } from "@/lib/domain/log-view";
import { isoOrNull, toIso, type StoreContext } from "@/lib/server/store/context";
import type { StoreDatabase } from "@/lib/server/store/schema";

/**
 * The incidents of the session's applications as the console shows them: the firing ones and
 * the newest resolved ones, each with its watch's name and endpoint, and what the engine wrote
 * in `detail` (incident-detail.ts). A detail that cannot be read shows the rule's name alone
 * rather than failing the list.
 */

function readDetail(text: string): IncidentDetail | null {
  try {
    const detail = parseDetail(text);
    return typeof detail.breach.headline === "string" && detail.breach.headline !== "" ? detail : null;
  } catch {
    return null;
  }
}

/**
 * "N of M attempts failed", when the breach counts attempts. Rules about no window of attempts
 * (inactive, errorsJump, silence) count none; an inactive webhook's codes are its failing streak's,
 * attempts that all failed.
 */
function countsOf(rule: IncidentRule, breach: IncidentDetail["breach"]): IncidentView["counts"] {
  if (breach.attempts > 0) return { failures: breach.failures, attempts: breach.attempts };
  const streak = breach.codes.reduce((sum, { count }) => sum + count, 0);
  return rule === "inactive" && streak > 0 ? { failures: streak, attempts: streak } : null;
}

type IncidentRow = Selectable<StoreDatabase["alert_incidents"]> & {
  watch_name: string | null;
  watch_endpoint: string | null;
};

function viewOf(row: IncidentRow, applicationNames: ReadonlyMap<string, string>): IncidentView {
  const detail = readDetail(row.detail);
  const rule: IncidentRule = row.rule in RULE_NAMES ? row.rule : "summary";
  const applicationName = applicationNames.get(row.app_id) ?? row.app_id;
  const wide = row.webhook_id === "";
  return {
    id: row.id,
    appId: row.app_id,
    applicationName,
    webhookId: row.webhook_id,
    name: wide ? applicationName : (row.watch_name ?? row.webhook_id),
    endpoint: row.watch_endpoint ?? "",
    rule,
    ruleName: RULE_NAMES[rule],
    state: row.state,
    openedAt: toIso(row.opened_at),
    resolvedAt: isoOrNull(row.resolved_at),
    headline: (row.state === "resolved" && detail?.recovery) || detail?.breach.headline || RULE_NAMES[rule],
    since: isoOrNull(detail?.breach.since ?? null),
    counts: detail ? countsOf(rule, detail.breach) : null,
    codes: detail?.breach.codes ?? [],
    href: wide
      ? `/overview?failing=true&app=${encodeURIComponent(row.app_id)}`
      : webhookViewHref(row.webhook_id, { app: row.app_id }),
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
 * Firing incidents of these applications (application-wide ones first, then the oldest first)
 * and the RESOLVED_SHOWN resolved last. `applicationNames` names them by the session's names.
 */
export async function listIncidents(
  ctx: StoreContext,
  applicationNames: ReadonlyMap<string, string>,
): Promise<IncidentsAnswer> {
  const appIds = [...applicationNames.keys()];
  if (appIds.length === 0) return { firing: [], resolved: [] };
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
  return {
    firing: firing.map((row) => viewOf(row, applicationNames)),
    resolved: resolved.map((row) => viewOf(row, applicationNames)),
  };
}
