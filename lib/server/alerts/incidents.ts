import "server-only";
import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import {
  DELIVERY_RULES,
  earliestSince,
  isWorse,
  nextConditions,
  type Condition,
} from "@/lib/domain/alerts/conditions";
import { evaluateRules } from "@/lib/domain/alerts/evaluate";
import { parseDetail, type IncidentDetail } from "@/lib/domain/alerts/incident-detail";
import {
  recoveredMessage,
  recoveryText,
  type IncidentFacts,
  type MessageContext,
} from "@/lib/domain/alerts/incident-message";
import type { AlertSummaryItem, AlertWebhook, IncidentScope } from "@/lib/domain/alerts/message";
import { applicationOf } from "@/lib/server/alerts/application-names";
import { failuresBetween, webhookFacts } from "@/lib/server/alerts/facts";
import { enqueueAlert } from "@/lib/server/alerts/outbox";
import { rulesFor } from "@/lib/server/alerts/rules-store";
import { maintenanceUntil } from "@/lib/server/maintenance/windows-store";
import type { StoreContext } from "@/lib/server/store/context";
import type { StoreDatabase } from "@/lib/server/store/schema";

/**
 * Incidents: one per watched webhook, listing the conditions that hold on it (the partial unique
 * index keeps it to one firing per webhook, whichever instance opens it), one per application
 * whose key the hub rejects, and summaries. A webhook's incident opens when a condition starts
 * to hold, is kept current while they change (an update becomes due when it gets worse), and
 * resolves when none holds: for its deliveries, once the webhook has delivered as many times in
 * a row as resolve a failure issue. Opening records only: the alert pass (notify.ts) sends the
 * alerts, alone or inside a summary, once nothing holds them. Resolving an incident whose alert
 * went out alone sends its recovery notice in the same transaction, so it is recorded exactly once;
 * during a maintenance window the notice waits (`recovery_due`) and the alert pass sends it when
 * the window ends (tellHeldRecoveries).
 */

export type IncidentRow = Selectable<StoreDatabase["alert_incidents"]>;

const MINUTE = 60_000;
/** Application-wide incidents and summaries have no webhook. */
export const APP_WIDE = "";

export function incidentFacts(
  row: IncidentRow,
  application: { id: string; name: string },
  detail: IncidentDetail = parseDetail(row.detail),
): IncidentFacts {
  return {
    id: row.id,
    scope: row.scope,
    application,
    webhook: detail.webhook,
    conditions: detail.conditions,
    since: detail.since,
    openedAt: Number(row.opened_at),
  };
}

/**
 * Opens a firing incident unless one of this scope is already firing here; answers the row this
 * call opened (null when another was). Opened within `cooldownMinutes` of the resolution of the
 * last incident here that was told, its alert waits until the cooldown ends.
 */
export async function openIncident(
  ctx: StoreContext,
  incident: {
    appId: string;
    webhookId: string;
    scope: IncidentScope;
    conditions: Condition[];
    webhook: AlertWebhook | null;
    cooldownMinutes: number;
  },
  now: number,
): Promise<IncidentRow | null> {
  const last = await ctx.db
    .selectFrom("alert_incidents")
    .select("resolved_at")
    .where("app_id", "=", incident.appId)
    .where("webhook_id", "=", incident.webhookId)
    .where("scope", "=", incident.scope)
    .where("state", "=", "resolved")
    .where("notified_at", "is not", null)
    .orderBy("resolved_at", "desc")
    .limit(1)
    .executeTakeFirst();
  const cooldownEnd =
    last?.resolved_at == null ? null : Number(last.resolved_at) + incident.cooldownMinutes * MINUTE;
  const detail: IncidentDetail = {
    conditions: incident.conditions,
    since: earliestSince(null, incident.conditions),
    webhook: incident.webhook,
    cooldownUntil: cooldownEnd !== null && cooldownEnd > now ? cooldownEnd : null,
    held: null,
    told: null,
    updates: 0,
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
      scope: incident.scope,
      state: "firing",
      opened_at: now,
      resolved_at: null,
      detail: JSON.stringify(detail),
      notified_at: null,
      updated_at: now,
      summary_id: null,
      update_due: null,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  return inserted ?? null;
}

/**
 * Writes a firing incident's detail if nobody changed it since `row` was read (the alert pass
 * and the rules, on any instance, write it too); answers the row as written, undefined when it
 * was not. `updateDue` marks an update due from then, unless one already is.
 */
export function writeDetail(
  ctx: StoreContext,
  row: IncidentRow,
  detail: IncidentDetail,
  now: number,
  updateDue = false,
): Promise<IncidentRow | undefined> {
  return ctx.db
    .updateTable("alert_incidents")
    .set((eb) => ({
      detail: JSON.stringify(detail),
      updated_at: now,
      ...(updateDue ? { update_due: eb.fn.coalesce("update_due", eb.val(now)) } : {}),
    }))
    .where("id", "=", row.id)
    .where("state", "=", "firing")
    .where("detail", "=", row.detail)
    .returningAll()
    .executeTakeFirst();
}

/** Whether the incident ever listed a condition about the webhook's failed deliveries. */
const aboutDeliveries = (detail: IncidentDetail) =>
  [...detail.conditions.map((c) => c.rule), ...(detail.told?.rules ?? [])].some((rule) =>
    DELIVERY_RULES.has(rule),
  );

/** The failed deliveries since the incident's start, when it was about them; else 0. */
function failuresDuring(ctx: StoreContext, row: IncidentRow, detail: IncidentDetail, until: number) {
  const since = detail.since ?? Number(row.opened_at);
  return row.scope === "webhook" && aboutDeliveries(detail)
    ? failuresBetween(ctx, row.webhook_id, since, until)
    : Promise.resolve(0);
}

/** Records an incident's recovery notice (raised `at`, recorded `now`) for each destination. */
async function enqueueRecovery(
  ctx: StoreContext,
  links: MessageContext,
  row: IncidentRow,
  detail: IncidentDetail,
  failures: number,
  at: number,
  now: number,
): Promise<void> {
  const application = await applicationOf(ctx, row.app_id);
  const facts = incidentFacts(row, application, detail);
  await enqueueAlert(ctx, row.app_id, recoveredMessage(facts, failures, links, at, detail.webhooks), now);
}

/**
 * Resolves a firing incident (once, whichever instance gets there first) with its recovery
 * sentence, counting the failed deliveries since its start when it was about them. Its notice is
 * sent only when its alert went out alone: one held all along sends nothing, one told inside a
 * summary is told recovered with that summary. During a maintenance window the notice waits for
 * the window to end (`recovery_due`): a webhook in maintenance tells nothing.
 */
export async function resolveIncident(
  ctx: StoreContext,
  links: MessageContext,
  row: IncidentRow,
  now: number,
  webhooks: AlertSummaryItem[] = [],
): Promise<boolean> {
  const detail = parseDetail(row.detail);
  const since = detail.since ?? Number(row.opened_at);
  const failures = await failuresDuring(ctx, row, detail, now);
  const resolved: IncidentDetail = {
    ...detail,
    held: null,
    webhooks: webhooks.length > 0 ? webhooks : detail.webhooks,
    recovery: recoveryText(failures, now - since),
  };
  return ctx.db.transaction().execute(async (tx) => {
    const done = await tx
      .updateTable("alert_incidents")
      .set({
        state: "resolved",
        resolved_at: now,
        updated_at: now,
        update_due: null,
        detail: JSON.stringify(resolved),
      })
      .where("id", "=", row.id)
      .where("state", "=", "firing")
      .returning(["notified_at", "summary_id"])
      .executeTakeFirst();
    if (!done) return false;
    if (done.notified_at !== null && done.summary_id === null) {
      const inTx = { ...ctx, db: tx };
      if ((await maintenanceUntil(inTx, row.app_id, row.webhook_id, now)) === null)
        await enqueueRecovery(inTx, links, row, resolved, failures, now, now);
      else
        await tx.updateTable("alert_incidents").set({ recovery_due: now }).where("id", "=", row.id).execute();
    }
    return true;
  });
}

/**
 * Sends the recovery notices a maintenance window held, once the window has ended: each once,
 * whichever instance gets there first (the notice is recorded in the same transaction that
 * clears `recovery_due`). It says when the incident recovered, not when it was sent.
 */
export async function tellHeldRecoveries(
  ctx: StoreContext,
  links: MessageContext,
  now: number,
): Promise<void> {
  const held = await ctx.db
    .selectFrom("alert_incidents")
    .selectAll()
    .where("state", "=", "resolved")
    .where("recovery_due", "is not", null)
    .execute();
  for (const row of held) {
    if ((await maintenanceUntil(ctx, row.app_id, row.webhook_id, now)) !== null) continue;
    const detail = parseDetail(row.detail);
    const resolvedAt = Number(row.resolved_at);
    const failures = await failuresDuring(ctx, row, detail, resolvedAt);
    await ctx.db.transaction().execute(async (tx) => {
      const claimed = await tx
        .updateTable("alert_incidents")
        .set({ recovery_due: null, updated_at: now })
        .where("id", "=", row.id)
        .where("recovery_due", "is not", null)
        .returning("id")
        .executeTakeFirst();
      if (claimed) await enqueueRecovery({ ...ctx, db: tx }, links, row, detail, failures, resolvedAt, now);
    });
  }
}

/** The firing incident of this scope of one webhook (or, with APP_WIDE, of the application), if any. */
export function firingIncident(
  ctx: StoreContext,
  appId: string,
  webhookId: string,
  scope: IncidentScope,
): Promise<IncidentRow | undefined> {
  return ctx.db
    .selectFrom("alert_incidents")
    .selectAll()
    .where("app_id", "=", appId)
    .where("webhook_id", "=", webhookId)
    .where("scope", "=", scope)
    .where("state", "=", "firing")
    .executeTakeFirst();
}

/** Tries a change of a firing incident again when another instance wrote it first. */
const ATTEMPTS = 3;

/**
 * Judges a webhook's rules after a poll into the conditions of its one incident: opens it when a
 * condition starts to hold, keeps its conditions current (marking an update due when it got
 * worse after its alert went out alone), resolves it when none holds. Rules the facts cannot
 * judge (the poll failed) stay as they are.
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
  const delivering = watched.facts.successRun >= ctx.issueResolveAfter;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const open = await firingIncident(ctx, appId, webhookId, "webhook");
    const detail = open ? parseDetail(open.detail) : null;
    const conditions = nextConditions(detail?.conditions ?? [], verdicts, rules, delivering);
    if (!open || !detail) {
      if (conditions.length === 0) return;
      const { webhook } = watched;
      const opened = await openIncident(
        ctx,
        { appId, webhookId, scope: "webhook", conditions, webhook, cooldownMinutes: rules.cooldownMinutes },
        now,
      );
      if (opened) return;
      continue;
    }
    if (conditions.length === 0) {
      await resolveIncident(ctx, links, open, now);
      return;
    }
    const next: IncidentDetail = { ...detail, conditions, since: earliestSince(detail.since, conditions) };
    // Told inside a summary, a webhook's changes are not told on their own: the summary tells the webhooks.
    const worse =
      detail.told !== null && open.summary_id === null && isWorse(detail.told, conditions, rules.streak.min);
    if (!worse && JSON.stringify(next) === open.detail) return;
    if (await writeDetail(ctx, open, next, now, worse)) return;
  }
}
