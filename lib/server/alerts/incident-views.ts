import "server-only";
import type { Selectable } from "kysely";
import { z } from "zod";
import {
  RESOLVED_SHOWN,
  RULE_NAMES,
  type IncidentRule,
  type IncidentView,
  type IncidentsAnswer,
} from "@/lib/domain/alerts/incidents";
import { webhookViewHref } from "@/lib/domain/log-view";
import { isoOrNull, toIso, type StoreContext } from "@/lib/server/watch/context";
import type { WatchDatabase } from "@/lib/server/watch/schema";

/**
 * The incidents of the session's applications as the console shows them: the firing ones and
 * the newest resolved ones, each with its watch's name and endpoint. The engine owns `detail`;
 * this reads only its optional `headline`, `since`, `counts` and `codes` (AlertMessage's
 * fields), and a field of another shape is left out rather than failing the list.
 */

const detailSchema = z.object({
  headline: z.string().min(1).max(500).optional().catch(undefined),
  since: z.iso.datetime({ offset: true }).nullable().optional().catch(undefined),
  counts: z
    .object({ failures: z.number().int().nonnegative(), attempts: z.number().int().nonnegative() })
    .optional()
    .catch(undefined),
  codes: z
    .array(z.object({ code: z.number().int(), count: z.number().int().nonnegative() }))
    .max(20)
    .optional()
    .catch(undefined),
});

function readDetail(text: string): z.output<typeof detailSchema> {
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  const parsed = detailSchema.safeParse(json);
  return parsed.success ? parsed.data : {};
}

type IncidentRow = Selectable<WatchDatabase["alert_incidents"]> & {
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
    headline: detail.headline ?? RULE_NAMES[rule],
    since: detail.since ?? null,
    counts: detail.counts ?? null,
    codes: detail.codes ?? [],
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
