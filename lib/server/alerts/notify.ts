import "server-only";
import { DELIVERY_RULES, isWorse, toldAfter, type Condition } from "@/lib/domain/alerts/conditions";
import { keyRejected, rankCodes } from "@/lib/domain/alerts/evaluate";
import { holdOf, holdText } from "@/lib/domain/alerts/hold";
import { parseDetail, type IncidentDetail } from "@/lib/domain/alerts/incident-detail";
import {
  incidentAlert,
  summaryMessage,
  webhookLink,
  type MessageContext,
} from "@/lib/domain/alerts/incident-message";
import type { AlertMessage, AlertSummaryItem } from "@/lib/domain/alerts/message";
import { NO_OVERRIDE } from "@/lib/domain/alerts/rules";
import { applicationOf } from "@/lib/server/alerts/application-names";
import { failureSamples } from "@/lib/server/alerts/facts";
import {
  APP_WIDE,
  firingIncident,
  incidentFacts,
  openIncident,
  resolveIncident,
  tellHeldRecoveries,
  writeDetail,
  type IncidentRow,
} from "@/lib/server/alerts/incidents";
import { enqueueAlert } from "@/lib/server/alerts/outbox";
import { appRules, rulesFor, webhookOverrides } from "@/lib/server/alerts/rules-store";
import { maintenanceHolds } from "@/lib/server/maintenance/windows-store";
import type { StoreContext } from "@/lib/server/store/context";

/**
 * The alert pass, run every few seconds by each watcher: incidents of a rejected key, firing
 * alerts and updates sent once nothing holds them (a snooze, quiet hours, a cooldown, a
 * maintenance window), recoveries a maintenance window held sent once it ended, many webhooks
 * firing at once told in one summary (and webhooks failing while it lasts added to it; those in
 * maintenance are neither), and summaries resolved when their last webhook has. Every step is a
 * conditional write, so instances running it at once send each alert once.
 */

export interface PassSettings {
  links: MessageContext;
  /** The watch's poll interval: webhooks that fire within two of them fire "at once". */
  intervalSeconds: number;
}

/** Webhooks of one application firing at once that make a summary instead of their own alerts. */
export const GROUP_MIN_WEBHOOKS = 5;
/** Webhooks the watch cannot read at once that make it the hub's failure, told in a summary. */
export const GROUP_MIN_UNREADABLE = 2;

/** How long a new incident (or an update) waits for others to come with it before it is told. */
export function settleMs(intervalSeconds: number): number {
  return Math.min(10_000, (intervalSeconds * 1000) / 4);
}

const groupWindowMs = (intervalSeconds: number) => 2 * intervalSeconds * 1000;

const unreadable = (conditions: readonly Condition[]) =>
  conditions.some((condition) => condition.rule === "watchUnreadable");

export async function alertPass(ctx: StoreContext, settings: PassSettings, now: number): Promise<void> {
  await keyIncidents(ctx, settings.links, now);
  await forgetUnwatched(ctx, now);
  await tellHeldRecoveries(ctx, settings.links, now);
  const pending = await ctx.db
    .selectFrom("alert_incidents")
    .selectAll()
    .where("state", "=", "firing")
    .where((eb) => eb.or([eb("notified_at", "is", null), eb("update_due", "is not", null)]))
    .orderBy("opened_at")
    .execute();
  const byApp = new Map<string, IncidentRow[]>();
  for (const row of pending) byApp.set(row.app_id, [...(byApp.get(row.app_id) ?? []), row]);
  for (const [appId, rows] of byApp) await notifyApp(ctx, settings, appId, rows, now);
  await keepSummaries(ctx, settings.links, now);
}

/** The application-wide incident: firing while the hub rejects the application's key. */
async function keyIncidents(ctx: StoreContext, links: MessageContext, now: number): Promise<void> {
  const rejected = await ctx.db
    .selectFrom("watch_keys")
    .select(["app_id", "rejected_at"])
    .where("rejected_at", "is not", null)
    .execute();
  const firing = await ctx.db
    .selectFrom("alert_incidents")
    .selectAll()
    .where("scope", "=", "application")
    .where("state", "=", "firing")
    .execute();
  const rejectedApps = new Map(rejected.map((row) => [row.app_id, Number(row.rejected_at)]));
  for (const row of firing) {
    if (!rejectedApps.has(row.app_id)) await resolveIncident(ctx, links, row, now);
  }
  for (const [appId, at] of rejectedApps) {
    const rules = await appRules(ctx, appId);
    const open = firing.find((row) => row.app_id === appId);
    if (!rules.watchUnreadable.enabled) {
      if (open) await resolveIncident(ctx, links, open, now);
    } else if (!open) {
      await openIncident(
        ctx,
        {
          appId,
          webhookId: APP_WIDE,
          scope: "application",
          conditions: [{ rule: "watchUnreadable", ...keyRejected(at) }],
          webhook: null,
          cooldownMinutes: rules.cooldownMinutes,
        },
        now,
      );
    }
  }
}

/** Incidents of webhooks no longer watched end without a notice: nobody watches them to recover. */
async function forgetUnwatched(ctx: StoreContext, now: number): Promise<void> {
  await ctx.db
    .updateTable("alert_incidents")
    .set({ state: "resolved", resolved_at: now, updated_at: now, update_due: null })
    .where("state", "=", "firing")
    .where("webhook_id", "<>", APP_WIDE)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("watches")
            .select("webhook_id")
            .whereRef("watches.webhook_id", "=", "alert_incidents.webhook_id"),
        ),
      ),
    )
    .execute();
}

/**
 * One application's pending alerts: held ones wait; new webhook incidents join the summary that
 * fires, or make one when many fire at once; the rest (and updates) go alone once settled.
 */
async function notifyApp(
  ctx: StoreContext,
  settings: PassSettings,
  appId: string,
  pending: IncidentRow[],
  now: number,
): Promise<void> {
  const ready: IncidentRow[] = [];
  // New incidents ready now or soon (their hold ends within the window of "at once") count
  // towards a summary: many held by one cooldown end together. Those held longer are not news yet.
  const soon: IncidentRow[] = [];
  const overrides = await webhookOverrides(ctx, appId);
  const maintenance = await maintenanceHolds(ctx, appId, now);
  for (const read of pending) {
    const detail = parseDetail(read.detail);
    const override = overrides.get(read.webhook_id) ?? NO_OVERRIDE;
    const hold = holdOf(override, detail.cooldownUntil, now, maintenance.get(read.webhook_id) ?? null);
    const held = hold ? holdText(hold) : null;
    const row = held === detail.held ? read : await writeDetail(ctx, read, { ...detail, held }, now);
    if (!row) continue;
    if (!hold) ready.push(row);
    const fresh = row.scope === "webhook" && row.notified_at === null;
    if (fresh && (!hold || hold.until - now <= groupWindowMs(settings.intervalSeconds))) soon.push(row);
  }
  const fresh = ready.filter((row) => row.scope === "webhook" && row.notified_at === null);
  let summary = await firingIncident(ctx, appId, APP_WIDE, "summary");
  let alone = ready;
  if (fresh.length > 0 && (summary || (await manyAtOnce(ctx, settings, appId, soon, maintenance, now)))) {
    summary ??= await summaryOf(ctx, appId, now);
    const ids = fresh.map((row) => row.id);
    const joined = await tellWith(ctx, ids, summary.id, now);
    // Joining a summary already told is news: its update names them (a follow-up where the destination cannot edit).
    if (joined > 0 && summary.notified_at !== null) await updateDue(ctx, summary.id, now);
    alone = ready.filter((row) => !ids.includes(row.id));
  }
  for (const row of alone) {
    if (await settled(ctx, settings, row, now)) await notifyOnce(ctx, settings.links, row, now);
  }
}

/** Marks incidents as told inside a summary; answers how many this call marked. */
async function tellWith(ctx: StoreContext, ids: string[], summaryId: string, now: number) {
  const marked = await ctx.db
    .updateTable("alert_incidents")
    .set({ notified_at: now, summary_id: summaryId, updated_at: now })
    .where("id", "in", ids)
    .where("notified_at", "is", null)
    .returning("id")
    .execute();
  return marked.length;
}

/** A firing incident whose alert went out has an update to tell, from now unless already due. */
async function updateDue(ctx: StoreContext, id: string, now: number) {
  await ctx.db
    .updateTable("alert_incidents")
    .set({ update_due: now, updated_at: now })
    .where("id", "=", id)
    .where("state", "=", "firing")
    .where("notified_at", "is not", null)
    .where("update_due", "is", null)
    .execute();
}

/**
 * Whether an alert has waited long enough for others to come with it: a settle time after its
 * incident opened, or after its update became due; for a summary, also a settle time after its
 * last webhook joined (so one alert lists a whole burst), but its first alert no longer than the
 * window of "at once".
 */
async function settled(ctx: StoreContext, settings: PassSettings, row: IncidentRow, now: number) {
  const settle = settleMs(settings.intervalSeconds);
  const since = Number(row.update_due ?? row.opened_at);
  if (row.scope !== "summary") return now - since >= settle;
  if (row.notified_at === null && now - since >= groupWindowMs(settings.intervalSeconds)) return true;
  const last = await ctx.db
    .selectFrom("alert_incidents")
    .select((eb) => eb.fn.max("notified_at").as("joined"))
    .where("summary_id", "=", row.id)
    .executeTakeFirst();
  return now - Math.max(since, Number(last?.joined ?? 0)) >= settle;
}

/**
 * Enough webhooks fired within the window or are about to be told (fewer when the watch cannot
 * read them: then it is the hub failing, not each endpoint). Alerts held for long do not count:
 * a webhook failing later is news of its own; nor do webhooks in a maintenance window.
 */
async function manyAtOnce(
  ctx: StoreContext,
  settings: PassSettings,
  appId: string,
  untold: IncidentRow[],
  maintenance: ReadonlyMap<string, number>,
  now: number,
) {
  const recent = await ctx.db
    .selectFrom("alert_incidents")
    .select(["webhook_id", "detail"])
    .where("app_id", "=", appId)
    .where("scope", "=", "webhook")
    .where("opened_at", ">=", now - groupWindowMs(settings.intervalSeconds))
    .execute();
  const all = [...recent, ...untold].filter((row) => !maintenance.has(row.webhook_id));
  const webhooks = new Set(all.map((row) => row.webhook_id));
  const unread = new Set(
    all.filter((row) => unreadable(parseDetail(row.detail).conditions)).map((row) => row.webhook_id),
  );
  return webhooks.size >= GROUP_MIN_WEBHOOKS || unread.size >= GROUP_MIN_UNREADABLE;
}

/** The application's firing summary, opened now (held if the last one resolved within the cooldown). */
async function summaryOf(ctx: StoreContext, appId: string, now: number): Promise<IncidentRow> {
  const rules = await appRules(ctx, appId);
  const opened = await openIncident(
    ctx,
    {
      appId,
      webhookId: APP_WIDE,
      scope: "summary",
      conditions: [
        {
          rule: "summary",
          headline: "many webhooks failing at once",
          since: now,
          failures: 0,
          attempts: 0,
          codes: [],
        },
      ],
      webhook: null,
      cooldownMinutes: rules.cooldownMinutes,
    },
    now,
  );
  // Another instance opened it between our read and our insert: theirs is the one.
  return opened ?? (await firingIncident(ctx, appId, APP_WIDE, "summary"))!;
}

/**
 * What a summary tells, one item per webhook, worst first, and its condition over them. While it
 * fires: every webhook of the application failing now, whether it joined the summary or was told
 * alone; once resolved, the webhooks that were in it. Most of them unreadable is the hub failing.
 */
async function summaryContent(
  ctx: StoreContext,
  links: MessageContext,
  summary: IncidentRow,
  onlyFiring: boolean,
  now: number,
) {
  // A webhook in a maintenance window is not news: it joins a summary's list when its window ends.
  const maintenance = onlyFiring
    ? await maintenanceHolds(ctx, summary.app_id, now)
    : new Map<string, number>();
  const found = await ctx.db
    .selectFrom("alert_incidents")
    .leftJoin("watch_state", "watch_state.webhook_id", "alert_incidents.webhook_id")
    .selectAll("alert_incidents")
    .select("watch_state.last_failure_code")
    .$if(onlyFiring, (qb) =>
      qb
        .where("alert_incidents.app_id", "=", summary.app_id)
        .where("alert_incidents.scope", "=", "webhook")
        .where("alert_incidents.state", "=", "firing"),
    )
    .$if(!onlyFiring, (qb) => qb.where("alert_incidents.summary_id", "=", summary.id))
    .execute();
  const rows = found.filter((row) => !maintenance.has(row.webhook_id));
  const items = new Map<string, AlertSummaryItem>();
  const details = rows.map((row) => ({ row, detail: parseDetail(row.detail) }));
  for (const { row, detail } of details) {
    if (!detail.webhook) continue;
    const item = items.get(row.webhook_id);
    // The latest failed delivery's code, when something other than its reads fails.
    const delivering = detail.conditions.some((condition) => condition.rule !== "watchUnreadable");
    const failures = Math.max(0, ...detail.conditions.map((condition) => condition.failures));
    items.set(row.webhook_id, {
      webhook: detail.webhook,
      failures: Math.max(item?.failures ?? 0, failures),
      lastStatusCode: (delivering ? row.last_failure_code : null) ?? item?.lastStatusCode ?? null,
      link: webhookLink(links, summary.app_id, row.webhook_id),
    });
  }
  const unread = new Set(
    details.filter(({ detail }) => unreadable(detail.conditions)).map(({ row }) => row.webhook_id),
  ).size;
  const hubFailing = unread >= GROUP_MIN_UNREADABLE && unread * 2 > items.size;
  // The watch reads every webhook of the application through the failing hub: each is listed,
  // including those whose turn to be polled has not come yet, with the reads that failed so far.
  if (hubFailing) {
    for (const row of await watchedWebhooks(ctx, summary.app_id)) {
      if (items.has(row.webhook_id)) continue;
      items.set(row.webhook_id, {
        webhook: { id: row.webhook_id, name: row.name, endpoint: row.endpoint },
        failures: row.poll_failures,
        lastStatusCode: null,
        link: webhookLink(links, summary.app_id, row.webhook_id),
      });
    }
  }
  const webhooks = [...items.values()].sort(
    (a, b) => b.failures - a.failures || a.webhook.name.localeCompare(b.webhook.name),
  );
  const starts = details.map(({ row, detail }) => detail.since ?? Number(row.opened_at));
  const leads = details.flatMap(({ detail }) => detail.conditions.slice(0, 1));
  const condition: Condition = {
    rule: "summary",
    headline: hubFailing
      ? `the watch cannot read ${unread === webhooks.length ? webhooks.length : `${unread} of ${webhooks.length}`} webhooks: the hub is failing`
      : `${webhooks.length} webhooks failing at once`,
    since: starts.length > 0 ? Math.min(...starts) : null,
    failures: webhooks.reduce((sum, item) => sum + item.failures, 0),
    attempts: leads.reduce((sum, lead) => sum + lead.attempts, 0),
    codes: rankCodes(leads.flatMap((lead) => lead.codes)),
  };
  return { webhooks, condition, hubFailing };
}

/** The application's watched webhooks: names, endpoints and failed polls in a row. */
function watchedWebhooks(ctx: StoreContext, appId: string) {
  return ctx.db
    .selectFrom("watches")
    .innerJoin("watch_state", "watch_state.webhook_id", "watches.webhook_id")
    .select(["watches.webhook_id", "watches.name", "watches.endpoint", "watch_state.poll_failures"])
    .where("watches.app_id", "=", appId)
    .execute();
}

/** What an alert of `row` tells now, and the detail once it is told; null when it has nothing new to tell. */
async function alertOf(
  ctx: StoreContext,
  links: MessageContext,
  row: IncidentRow,
  detail: IncidentDetail,
  now: number,
): Promise<{ message: AlertMessage; told: IncidentDetail } | null> {
  const application = await applicationOf(ctx, row.app_id);
  const update = row.notified_at !== null ? detail.updates + 1 : undefined;
  if (row.scope === "summary") {
    const { webhooks, condition, hubFailing } = await summaryContent(ctx, links, row, true, now);
    const before = new Set(detail.webhooks.map((item) => item.webhook.id));
    const added = update === undefined ? [] : webhooks.filter((item) => !before.has(item.webhook.id));
    if (webhooks.length === 0) return null;
    if (update !== undefined && added.length === 0 && hubFailing === detail.hubFailing) return null;
    const conditions = [condition];
    const told: IncidentDetail = {
      ...detail,
      conditions,
      since: condition.since,
      webhooks,
      hubFailing,
      told: toldAfter(detail.told, conditions),
      updates: update ?? detail.updates,
    };
    const facts = incidentFacts(row, application, told);
    return { message: summaryMessage(facts, { webhooks, added, hubFailing }, links, now, update), told };
  }
  if (update !== undefined) {
    const { rules } = await rulesFor(ctx, row.app_id, row.webhook_id);
    if (detail.told === null || !isWorse(detail.told, detail.conditions, rules.streak.min)) return null;
  }
  const aboutDeliveries = detail.conditions.some((condition) => DELIVERY_RULES.has(condition.rule));
  const samples = row.scope === "webhook" && aboutDeliveries ? await failureSamples(ctx, row.webhook_id) : [];
  const message = incidentAlert(incidentFacts(row, application, detail), samples, links, now, update);
  const told = {
    ...detail,
    told: toldAfter(detail.told, detail.conditions),
    updates: update ?? detail.updates,
  };
  return { message, told };
}

/**
 * Sends an incident's firing alert, or its due update, unless some instance already has (or
 * changed it since it was read: the next pass tells what it holds then). An update with nothing
 * new to tell is no longer due.
 */
async function notifyOnce(ctx: StoreContext, links: MessageContext, row: IncidentRow, now: number) {
  const detail = parseDetail(row.detail);
  const alert = await alertOf(ctx, links, row, detail, now);
  const firing = row.notified_at === null;
  if (!alert && firing) return;
  await ctx.db.transaction().execute(async (tx) => {
    const claimed = await tx
      .updateTable("alert_incidents")
      .set({
        notified_at: firing ? now : row.notified_at,
        update_due: null,
        updated_at: now,
        detail: JSON.stringify({ ...(alert?.told ?? detail), held: null }),
      })
      .where("id", "=", row.id)
      .where("state", "=", "firing")
      .where("detail", "=", row.detail)
      .where(firing ? "notified_at" : "update_due", firing ? "is" : "is not", null)
      .returning("id")
      .executeTakeFirst();
    if (claimed && alert) await enqueueAlert({ ...ctx, db: tx }, row.app_id, alert.message, now);
  });
}

/**
 * Summaries whose webhooks have all recovered resolve, with one notice listing them. A told one
 * still firing keeps its headline and counts to the webhooks firing in it now, and has an update
 * due when the hub it told of starts or stops failing.
 */
async function keepSummaries(ctx: StoreContext, links: MessageContext, now: number): Promise<void> {
  const summaries = await ctx.db
    .selectFrom("alert_incidents")
    .selectAll()
    .where("scope", "=", "summary")
    .where("state", "=", "firing")
    .execute();
  for (const summary of summaries) {
    const stillFiring = await ctx.db
      .selectFrom("alert_incidents")
      .select("id")
      .where("summary_id", "=", summary.id)
      .where("state", "=", "firing")
      .limit(1)
      .executeTakeFirst();
    if (stillFiring) {
      const detail = parseDetail(summary.detail);
      if (summary.notified_at === null) continue;
      const { webhooks, condition, hubFailing } = await summaryContent(ctx, links, summary, true, now);
      if (webhooks.length === 0) continue;
      const current = { ...detail, conditions: [condition] };
      if (JSON.stringify(current) !== summary.detail) await writeDetail(ctx, summary, current, now);
      if (hubFailing !== detail.hubFailing) await updateDue(ctx, summary.id, now);
      continue;
    }
    const content = await summaryContent(ctx, links, summary, false, now);
    await resolveIncident(ctx, links, summary, now, content.webhooks);
  }
}
