import "server-only";
import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import { evaluateRules, type Breach } from "@/lib/domain/alerts/evaluate";
import { parseDetail, type IncidentDetail } from "@/lib/domain/alerts/incident-detail";
import {
  recoveryText,
  resolvedMessage,
  type MessageContext,
  type IncidentFacts,
} from "@/lib/domain/alerts/incident-message";
import type { IncidentRule } from "@/lib/domain/alerts/incidents";
import type { AlertSummaryItem, AlertWebhook } from "@/lib/domain/alerts/message";
import { RULE_IDS } from "@/lib/domain/alerts/rules";
import { applicationOf } from "@/lib/server/alerts/application-names";
import { failuresBetween, webhookFacts } from "@/lib/server/alerts/facts";
import { enqueueAlert } from "@/lib/server/alerts/outbox";
import { rulesFor } from "@/lib/server/alerts/rules-store";
import type { StoreContext } from "@/lib/server/store/context";
import type { StoreDatabase } from "@/lib/server/store/schema";

/**
 * Incidents: a rule that starts to hold on a webhook opens one (the partial unique index keeps it
 * to one firing per webhook and rule, whichever instance opens it), a rule that clears resolves
 * it. Opening records only: the alert pass (notify.ts) sends the firing alert, alone or inside a
 * summary, once nothing holds it. Resolving an incident whose alert went out alone sends its
 * recovery notice in the same transaction, so it is recorded exactly once.
 */

export type IncidentRow = Selectable<StoreDatabase["alert_incidents"]>;

const MINUTE = 60_000;
/** Application-wide incidents and summaries have no webhook. */
export const APP_WIDE = "";

/** What the engine needs beyond the store: where the console is, for the links in alerts. */
/** Rules about the webhook's failed deliveries: one alert tells them all. */
export const DELIVERY_RULES = new Set<IncidentRule>(["streak", "rate", "errorsJump"]);

export function incidentFacts(
  row: IncidentRow,
  application: { id: string; name: string },
  detail: IncidentDetail = parseDetail(row.detail),
): IncidentFacts {
  return {
    id: row.id,
    rule: row.rule,
    application,
    webhook: detail.webhook,
    breach: detail.breach,
    openedAt: Number(row.opened_at),
  };
}

/**
 * Opens a firing incident unless one is already firing for this webhook and rule; answers
 * whether this call opened it. Opened within `cooldownMinutes` of the resolution of the same
 * rule's last incident here that was told, its alert waits until the cooldown ends.
 */
export async function openIncident(
  ctx: StoreContext,
  incident: {
    appId: string;
    webhookId: string;
    rule: IncidentRule;
    breach: Breach;
    webhook: AlertWebhook | null;
    cooldownMinutes: number;
    summaryId?: string | null;
    notifiedAt?: number | null;
  },
  now: number,
): Promise<IncidentRow | null> {
  const last = await ctx.db
    .selectFrom("alert_incidents")
    .select("resolved_at")
    .where("app_id", "=", incident.appId)
    .where("webhook_id", "=", incident.webhookId)
    .where("rule", "=", incident.rule)
    .where("state", "=", "resolved")
    .where("notified_at", "is not", null)
    .orderBy("resolved_at", "desc")
    .limit(1)
    .executeTakeFirst();
  const cooldownEnd =
    last?.resolved_at == null ? null : Number(last.resolved_at) + incident.cooldownMinutes * MINUTE;
  const detail: IncidentDetail = {
    breach: incident.breach,
    webhook: incident.webhook,
    cooldownUntil: cooldownEnd !== null && cooldownEnd > now ? cooldownEnd : null,
    held: null,
    webhooks: [],
    hubFailing: false,
    recovery: null,
  };
  const inserted = await ctx.db
    .insertInto("alert_incidents")
    .values({
      id: randomUUID(),
      app_id: incident.appId,
      webhook_id: incident.webhookId,
      rule: incident.rule,
      state: "firing",
      opened_at: now,
      resolved_at: null,
      detail: JSON.stringify(detail),
      notified_at: incident.notifiedAt ?? null,
      updated_at: now,
      summary_id: incident.summaryId ?? null,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  return inserted ?? null;
}

/** Keeps a firing incident's breach current (its counts grow); its `since` stays the first one. */
async function refreshBreach(ctx: StoreContext, row: IncidentRow, breach: Breach, now: number) {
  const detail = parseDetail(row.detail);
  const next: IncidentDetail = {
    ...detail,
    breach: { ...breach, since: detail.breach.since ?? breach.since },
  };
  const json = JSON.stringify(next);
  if (json === row.detail) return;
  await ctx.db
    .updateTable("alert_incidents")
    .set({ detail: json, updated_at: now })
    .where("id", "=", row.id)
    .where("state", "=", "firing")
    .execute();
}

/** Failures an incident lasted, for its recovery sentence: the stored failed attempts for rules about deliveries. */
async function failuresDuring(ctx: StoreContext, row: IncidentRow, detail: IncidentDetail, now: number) {
  if (row.webhook_id === APP_WIDE || !DELIVERY_RULES.has(row.rule)) return 0;
  return failuresBetween(ctx, row.webhook_id, detail.breach.since ?? Number(row.opened_at), now);
}

/**
 * A delivery rule's detail with the start of the failures its alert told: the earliest among the
 * rules told with it (a numberOfErrors jump is seen at a poll, after the failures it counts).
 */
async function toldStart(ctx: StoreContext, row: IncidentRow, detail: IncidentDetail) {
  if (row.webhook_id === APP_WIDE || !DELIVERY_RULES.has(row.rule)) return detail;
  const told = await ctx.db
    .selectFrom("alert_incidents")
    .select("detail")
    .where("summary_id", "=", row.id)
    .execute();
  const starts = [detail, ...told.map((r) => parseDetail(r.detail))]
    .map((d) => d.breach.since)
    .filter((since): since is number => since !== null);
  if (starts.length === 0) return detail;
  return { ...detail, breach: { ...detail.breach, since: Math.min(...starts) } };
}

/**
 * Resolves a firing incident (once, whichever instance gets there first) with its recovery
 * sentence. Its notice is sent only when its alert went out alone: one held all along sends
 * nothing, one told inside a summary (or with another rule) is told recovered with that one.
 */
export async function resolveIncident(
  ctx: StoreContext,
  links: MessageContext,
  row: IncidentRow,
  now: number,
  webhooks: AlertSummaryItem[] = [],
): Promise<boolean> {
  const detail = await toldStart(ctx, row, parseDetail(row.detail));
  const failures = await failuresDuring(ctx, row, detail, now);
  const since = detail.breach.since ?? Number(row.opened_at);
  const resolved: IncidentDetail = {
    ...detail,
    held: null,
    webhooks: webhooks.length > 0 ? webhooks : detail.webhooks,
    recovery: recoveryText(failures, now - since),
  };
  const deliveryRule = row.webhook_id !== APP_WIDE && DELIVERY_RULES.has(row.rule);
  return ctx.db.transaction().execute(async (tx) => {
    const done = await tx
      .updateTable("alert_incidents")
      .set({ state: "resolved", resolved_at: now, updated_at: now, detail: JSON.stringify(resolved) })
      .where("id", "=", row.id)
      .where("state", "=", "firing")
      .returning(["notified_at", "summary_id"])
      .executeTakeFirst();
    if (!done) return false;
    const toldAlone = done.notified_at !== null && done.summary_id === null;
    // Rules told with this one, or about the same webhook's failures and not told yet (a rate
    // that starts to hold as the streak ends), still fire: the first carries the alert on, in
    // this one's place, so "recovered" is said once the failures have stopped.
    const heirs = await tx
      .selectFrom("alert_incidents")
      .select(["id", "detail"])
      .where("state", "=", "firing")
      .where((eb) => {
        const toldWith = eb("summary_id", "=", row.id);
        if (!deliveryRule || done.notified_at === null) return toldWith;
        return eb.or([
          toldWith,
          eb.and([
            eb("app_id", "=", row.app_id),
            eb("webhook_id", "=", row.webhook_id),
            eb("rule", "in", [...DELIVERY_RULES]),
            eb("notified_at", "is", null),
          ]),
        ]);
      })
      .orderBy("opened_at")
      .execute();
    if (heirs.length > 0) {
      const [heir, ...rest] = heirs.map((h) => h.id);
      const told = { notified_at: done.notified_at, updated_at: now };
      // The alert it carries on told of failures since this one's start: its recovery counts them.
      const carried = parseDetail(heirs[0]!.detail);
      const heirSince = Math.min(carried.breach.since ?? Number.MAX_SAFE_INTEGER, since);
      await tx
        .updateTable("alert_incidents")
        .set({
          ...told,
          summary_id: done.summary_id,
          detail: JSON.stringify({ ...carried, breach: { ...carried.breach, since: heirSince } }),
        })
        .where("id", "=", heir!)
        .execute();
      if (rest.length > 0) {
        await tx
          .updateTable("alert_incidents")
          .set({ ...told, summary_id: heir! })
          .where("id", "in", rest)
          .execute();
      }
      return true;
    }
    if (toldAlone) {
      const application = await applicationOf({ ...ctx, db: tx }, row.app_id);
      const message = resolvedMessage(
        incidentFacts(row, application, detail),
        failures,
        links,
        now,
        resolved.webhooks,
      );
      await enqueueAlert({ ...ctx, db: tx }, row.app_id, message, now);
    }
    return true;
  });
}

/** The firing incidents of one webhook (or application-wide ones, with APP_WIDE). */
export function firingIncidents(ctx: StoreContext, appId: string, webhookId: string): Promise<IncidentRow[]> {
  return ctx.db
    .selectFrom("alert_incidents")
    .selectAll()
    .where("app_id", "=", appId)
    .where("webhook_id", "=", webhookId)
    .where("state", "=", "firing")
    .execute();
}

/**
 * Judges a webhook's rules after a poll: opens incidents for rules newly breached, keeps firing
 * ones current, resolves the ones that cleared. Rules the facts cannot judge (the poll failed)
 * stay as they are.
 */
export async function evaluateWebhook(
  ctx: StoreContext,
  links: MessageContext,
  appId: string,
  webhookId: string,
  now: number,
): Promise<void> {
  const { rules } = await rulesFor(ctx, appId, webhookId);
  const watched = await webhookFacts(ctx, webhookId, rules, now);
  if (!watched) return;
  const verdicts = evaluateRules(rules, watched.facts, now);
  const firing = new Map((await firingIncidents(ctx, appId, webhookId)).map((row) => [row.rule, row]));
  // Rules that hold are judged before those that cleared: a streak ending as the rate starts to
  // hold hands its alert on to the rate instead of telling "recovered".
  const order = [...RULE_IDS].sort(
    (a, b) => Number(verdicts[a] === "clear") - Number(verdicts[b] === "clear"),
  );
  for (const rule of order) {
    const verdict = verdicts[rule];
    const open = firing.get(rule);
    if (verdict === undefined) continue;
    if (verdict === "clear") {
      if (open) await resolveIncident(ctx, links, open, now);
    } else if (open) {
      await refreshBreach(ctx, open, verdict, now);
    } else {
      await openIncident(
        ctx,
        {
          appId,
          webhookId,
          rule,
          breach: verdict,
          webhook: watched.webhook,
          cooldownMinutes: rules.cooldownMinutes,
        },
        now,
      );
    }
  }
}
