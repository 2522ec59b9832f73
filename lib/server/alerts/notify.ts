import "server-only";
import { keyRejected, rankCodes, type Breach } from "@/lib/domain/alerts/evaluate";
import { holdOf, holdText } from "@/lib/domain/alerts/hold";
import { parseDetail, type IncidentDetail } from "@/lib/domain/alerts/incident-detail";
import {
  firingMessage,
  summaryMessage,
  webhookLink,
  type IncidentFacts,
  type MessageContext,
} from "@/lib/domain/alerts/incident-message";
import type { AlertMessage, AlertSummaryItem } from "@/lib/domain/alerts/message";
import { NO_OVERRIDE } from "@/lib/domain/alerts/rules";
import { applicationOf } from "@/lib/server/alerts/application-names";
import { failureSamples } from "@/lib/server/alerts/facts";
import {
  APP_WIDE,
  DELIVERY_RULES,
  firingIncidents,
  incidentFacts,
  openIncident,
  resolveIncident,
  type IncidentRow,
} from "@/lib/server/alerts/incidents";
import { enqueueAlert } from "@/lib/server/alerts/outbox";
import { appRules, webhookOverrides } from "@/lib/server/alerts/rules-store";
import type { StoreContext } from "@/lib/server/store/context";

/**
 * The alert pass, run every few seconds by each watcher: incidents of a rejected key, firing
 * alerts sent once nothing holds them, many webhooks firing at once told in one summary, and
 * summaries resolved when their last webhook has. Every step is a conditional write, so
 * instances running it at once send each alert once.
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

/** How long a new incident waits for others to fire with it before it is told alone. */
export function settleMs(intervalSeconds: number): number {
  return Math.min(10_000, (intervalSeconds * 1000) / 4);
}

const groupWindowMs = (intervalSeconds: number) => 2 * intervalSeconds * 1000;

export async function alertPass(ctx: StoreContext, settings: PassSettings, now: number): Promise<void> {
  await keyIncidents(ctx, settings.links, now);
  await forgetUnwatched(ctx, now);
  const pending = await ctx.db
    .selectFrom("alert_incidents")
    .selectAll()
    .where("state", "=", "firing")
    .where("notified_at", "is", null)
    .orderBy("opened_at")
    .execute();
  const byApp = new Map<string, IncidentRow[]>();
  for (const row of pending) byApp.set(row.app_id, [...(byApp.get(row.app_id) ?? []), row]);
  for (const [appId, rows] of byApp) await notifyApp(ctx, settings, appId, rows, now);
  await resolveSummaries(ctx, settings.links, now);
}

/** The application-wide `watchUnreadable`: firing while the hub rejects the application's key. */
async function keyIncidents(ctx: StoreContext, links: MessageContext, now: number): Promise<void> {
  const rejected = await ctx.db
    .selectFrom("watch_keys")
    .select(["app_id", "rejected_at"])
    .where("rejected_at", "is not", null)
    .execute();
  const firing = await ctx.db
    .selectFrom("alert_incidents")
    .selectAll()
    .where("webhook_id", "=", APP_WIDE)
    .where("rule", "=", "watchUnreadable")
    .where("state", "=", "firing")
    .execute();
  const rejectedApps = new Map(rejected.map((row) => [row.app_id, Number(row.rejected_at)]));
  for (const row of firing) {
    if (!rejectedApps.has(row.app_id)) await resolveIncident(ctx, links, row, now);
  }
  const firingApps = new Set(firing.map((row) => row.app_id));
  for (const [appId, at] of rejectedApps) {
    const rules = await appRules(ctx, appId);
    const open = firing.find((row) => row.app_id === appId);
    if (!rules.watchUnreadable.enabled) {
      if (open) await resolveIncident(ctx, links, open, now);
    } else if (!firingApps.has(appId)) {
      await openIncident(
        ctx,
        {
          appId,
          webhookId: APP_WIDE,
          rule: "watchUnreadable",
          breach: keyRejected(at),
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
    .set({ state: "resolved", resolved_at: now, updated_at: now })
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

/** One application's pending alerts: held ones wait, many at once join a summary, the rest go alone once settled. */
async function notifyApp(
  ctx: StoreContext,
  settings: PassSettings,
  appId: string,
  pending: IncidentRow[],
  now: number,
): Promise<void> {
  const ready: IncidentRow[] = [];
  // Alerts ready now or soon (their hold ends within the window of "at once") count towards a
  // summary: many held by one cooldown end together. Those held longer are not news yet.
  const soon: IncidentRow[] = [];
  const overrides = await webhookOverrides(ctx, appId);
  for (const row of pending) {
    const detail = parseDetail(row.detail);
    const override = overrides.get(row.webhook_id) ?? NO_OVERRIDE;
    const hold = holdOf(override, detail.cooldownUntil, now);
    const held = hold ? holdText(hold) : null;
    if (held !== detail.held) await writeDetail(ctx, row, { ...detail, held }, now);
    if (!hold) ready.push(row);
    if (!hold || hold.until - now <= groupWindowMs(settings.intervalSeconds)) soon.push(row);
  }
  const webhookRows = (rows: IncidentRow[]) =>
    rows.filter((row) => row.webhook_id !== APP_WIDE && row.rule !== "summary");
  const members = webhookRows(ready);
  let alone = ready;
  if (members.length > 0 && (await manyAtOnce(ctx, settings, appId, webhookRows(soon), now))) {
    const summary = await summaryOf(ctx, appId, now);
    const ids = members.map((row) => row.id);
    const joined = await tellWith(ctx, ids, summary.id, now);
    if (joined > 0 && (await worthAnUpdate(ctx, settings.links, summary, members))) {
      await untell(ctx, summary.id, now);
    }
    alone = ready.filter((row) => !ids.includes(row.id));
  }
  for (const row of alone) {
    const told = DELIVERY_RULES.has(row.rule) ? await toldDeliveryIncident(ctx, row) : undefined;
    if (told) await tellWith(ctx, [row.id], told.summary_id ?? told.id, now);
    else if (await settled(ctx, settings, row, now)) await notifyOnce(ctx, settings.links, row, now);
  }
}

/**
 * Marks incidents as told inside another (a summary, or a rule already told about the same
 * failures); answers how many this call marked.
 */
async function tellWith(ctx: StoreContext, ids: string[], withId: string, now: number) {
  const marked = await ctx.db
    .updateTable("alert_incidents")
    .set({ notified_at: now, summary_id: withId, updated_at: now })
    .where("id", "in", ids)
    .where("notified_at", "is", null)
    .returning("id")
    .execute();
  return marked.length;
}

/** A firing summary whose alert went out is pending again: the alert pass sends it as an update. */
async function untell(ctx: StoreContext, summaryId: string, now: number) {
  await ctx.db
    .updateTable("alert_incidents")
    .set({ notified_at: null, updated_at: now })
    .where("id", "=", summaryId)
    .where("state", "=", "firing")
    .where("notified_at", "is not", null)
    .execute();
}

/** A summary's detail lists the webhooks of its last alert: none until it is first told. */
const toldBefore = (detail: IncidentDetail) => detail.webhooks.length > 0;

/**
 * Whether webhooks joining a summary already told make an update: a burst of their own, or the
 * hub failing where the summary told of endpoints failing. One more webhook joins silently.
 */
async function worthAnUpdate(
  ctx: StoreContext,
  links: MessageContext,
  summary: IncidentRow,
  joined: IncidentRow[],
) {
  const detail = parseDetail(summary.detail);
  if (!toldBefore(detail)) return false;
  const told = new Set(detail.webhooks.map((item) => item.webhook.id));
  const fresh = new Set(joined.map((row) => row.webhook_id).filter((id) => !told.has(id)));
  if (fresh.size >= GROUP_MIN_WEBHOOKS) return true;
  return !detail.hubFailing && (await summaryContent(ctx, links, summary, true)).hubFailing;
}

/**
 * Another firing incident about the same webhook's failed deliveries whose alert went out: a
 * streak, a rate and a jump of numberOfErrors usually trip together, and one alert tells them.
 */
function toldDeliveryIncident(ctx: StoreContext, row: IncidentRow) {
  return ctx.db
    .selectFrom("alert_incidents")
    .select(["id", "summary_id"])
    .where("app_id", "=", row.app_id)
    .where("webhook_id", "=", row.webhook_id)
    .where("rule", "in", [...DELIVERY_RULES])
    .where("state", "=", "firing")
    .where("notified_at", "is not", null)
    .where("id", "<>", row.id)
    .orderBy("opened_at")
    .limit(1)
    .executeTakeFirst();
}

/**
 * Whether an incident has waited long enough for others firing with it: a settle time after it
 * opened; for a summary, a settle time after its last webhook joined (so one alert lists a whole
 * burst), but its first alert no longer than the window of "at once".
 */
async function settled(ctx: StoreContext, settings: PassSettings, row: IncidentRow, now: number) {
  const settle = settleMs(settings.intervalSeconds);
  if (row.rule !== "summary") return now - Number(row.opened_at) >= settle;
  const first = !toldBefore(parseDetail(row.detail));
  if (first && now - Number(row.opened_at) >= groupWindowMs(settings.intervalSeconds)) return true;
  const last = await ctx.db
    .selectFrom("alert_incidents")
    .select((eb) => eb.fn.max("notified_at").as("joined"))
    .where("summary_id", "=", row.id)
    .executeTakeFirst();
  return now - Number(last?.joined ?? row.opened_at) >= settle;
}

async function writeDetail(ctx: StoreContext, row: IncidentRow, detail: IncidentDetail, now: number) {
  await ctx.db
    .updateTable("alert_incidents")
    .set({ detail: JSON.stringify(detail), updated_at: now })
    .where("id", "=", row.id)
    .where("state", "=", "firing")
    .execute();
}

/**
 * Enough webhooks fired within the window or are about to be told (fewer when the watch cannot
 * read them: then it is the hub failing, not each endpoint). A summary still firing from an
 * earlier burst does not count, nor do alerts held for long: a webhook failing later is news of its own.
 */
async function manyAtOnce(
  ctx: StoreContext,
  settings: PassSettings,
  appId: string,
  untold: IncidentRow[],
  now: number,
) {
  const recent = await ctx.db
    .selectFrom("alert_incidents")
    .select(["webhook_id", "rule"])
    .where("app_id", "=", appId)
    .where("webhook_id", "<>", APP_WIDE)
    .where("opened_at", ">=", now - groupWindowMs(settings.intervalSeconds))
    .execute();
  const all = [...recent, ...untold];
  const webhooks = new Set(all.map((row) => row.webhook_id));
  const unreadable = new Set(
    all.filter((row) => row.rule === "watchUnreadable").map((row) => row.webhook_id),
  );
  return webhooks.size >= GROUP_MIN_WEBHOOKS || unreadable.size >= GROUP_MIN_UNREADABLE;
}

/** The application's firing summary, opened now when there is none (held if the last one resolved within the cooldown). */
async function summaryOf(ctx: StoreContext, appId: string, now: number): Promise<IncidentRow> {
  const firing = async () =>
    (await firingIncidents(ctx, appId, APP_WIDE)).find((row) => row.rule === "summary");
  const existing = await firing();
  if (existing) return existing;
  const rules = await appRules(ctx, appId);
  const opened = await openIncident(
    ctx,
    {
      appId,
      webhookId: APP_WIDE,
      rule: "summary",
      breach: { headline: "many webhooks failing at once", since: now, failures: 0, attempts: 0, codes: [] },
      webhook: null,
      cooldownMinutes: rules.cooldownMinutes,
    },
    now,
  );
  // Another instance opened it between our read and our insert: theirs is the one.
  return opened ?? (await firing())!;
}

/**
 * What a summary tells, one item per webhook, worst first, and its breach over them. While it
 * fires: every webhook of the application failing now, whether it joined the summary or was told
 * alone; once resolved, the webhooks that were in it. Most of them unreadable is the hub failing.
 */
async function summaryContent(
  ctx: StoreContext,
  links: MessageContext,
  summary: IncidentRow,
  onlyFiring: boolean,
) {
  const rows = await ctx.db
    .selectFrom("alert_incidents")
    .leftJoin("watch_state", "watch_state.webhook_id", "alert_incidents.webhook_id")
    .selectAll("alert_incidents")
    .select("watch_state.last_failure_code")
    .$if(onlyFiring, (qb) =>
      qb
        .where("alert_incidents.app_id", "=", summary.app_id)
        .where("alert_incidents.webhook_id", "<>", APP_WIDE)
        .where("alert_incidents.state", "=", "firing"),
    )
    .$if(!onlyFiring, (qb) => qb.where("alert_incidents.summary_id", "=", summary.id))
    .execute();
  const items = new Map<string, AlertSummaryItem>();
  const details = rows.map((row) => ({ row, detail: parseDetail(row.detail) }));
  for (const { row, detail } of details) {
    if (!detail.webhook) continue;
    const item = items.get(row.webhook_id);
    // The latest failed delivery's code; a read that failed has none of its own.
    const code = row.rule === "watchUnreadable" ? null : row.last_failure_code;
    items.set(row.webhook_id, {
      webhook: detail.webhook,
      failures: Math.max(item?.failures ?? 0, detail.breach.failures),
      lastStatusCode: code ?? item?.lastStatusCode ?? null,
      link: webhookLink(links, summary.app_id, row.webhook_id),
    });
  }
  const unreadable = new Set(
    rows.filter((row) => row.rule === "watchUnreadable").map((row) => row.webhook_id),
  ).size;
  const hubFailing = unreadable >= GROUP_MIN_UNREADABLE && unreadable * 2 > items.size;
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
  const starts = details.map(({ row, detail }) => detail.breach.since ?? Number(row.opened_at));
  const breach: Breach = {
    headline: hubFailing
      ? `the watch cannot read ${unreadable === webhooks.length ? webhooks.length : `${unreadable} of ${webhooks.length}`} webhooks: the hub is failing`
      : `${webhooks.length} webhooks failing at once`,
    since: starts.length > 0 ? Math.min(...starts) : null,
    failures: webhooks.reduce((sum, item) => sum + item.failures, 0),
    attempts: details.reduce((sum, { detail }) => sum + detail.breach.attempts, 0),
    codes: rankCodes(details.flatMap(({ detail }) => detail.breach.codes)),
  };
  return { webhooks, breach, hubFailing };
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

/** Sends an incident's firing alert (or a summary's) unless some instance already has. */
async function notifyOnce(
  ctx: StoreContext,
  links: MessageContext,
  row: IncidentRow,
  now: number,
): Promise<void> {
  const detail = parseDetail(row.detail);
  const application = await applicationOf(ctx, row.app_id);
  let message: AlertMessage;
  let told: IncidentDetail = detail;
  if (row.rule === "summary") {
    const content = await summaryContent(ctx, links, row, true);
    if (content.webhooks.length === 0) return;
    const { breach, webhooks, hubFailing } = content;
    told = { ...detail, breach, webhooks, hubFailing };
    const facts: IncidentFacts = incidentFacts(row, application, told);
    message = summaryMessage(facts, content.webhooks, content.hubFailing, links, now);
    // An update is a new alert to every destination, not a second copy of the first one.
    if (toldBefore(detail)) message = { ...message, idempotencyKey: `${row.id}.update.${now}` };
  } else {
    const samples =
      row.webhook_id !== APP_WIDE && DELIVERY_RULES.has(row.rule)
        ? await failureSamples(ctx, row.webhook_id)
        : [];
    message = firingMessage(incidentFacts(row, application, detail), samples, links, now);
  }
  await ctx.db.transaction().execute(async (tx) => {
    const claimed = await tx
      .updateTable("alert_incidents")
      .set({ notified_at: now, updated_at: now, detail: JSON.stringify({ ...told, held: null }) })
      .where("id", "=", row.id)
      .where("state", "=", "firing")
      .where("notified_at", "is", null)
      .returning("id")
      .executeTakeFirst();
    if (claimed) await enqueueAlert({ ...ctx, db: tx }, row.app_id, message, now);
  });
}

/**
 * Summaries whose webhooks have all recovered resolve, with one notice listing them; a told one
 * still firing keeps its headline and counts to the webhooks firing in it now, and is told again
 * when the hub it said was failing reads again.
 */
async function resolveSummaries(ctx: StoreContext, links: MessageContext, now: number): Promise<void> {
  const summaries = await ctx.db
    .selectFrom("alert_incidents")
    .selectAll()
    .where("rule", "=", "summary")
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
      if (!toldBefore(detail)) continue;
      const { breach, webhooks, hubFailing } = await summaryContent(ctx, links, summary, true);
      const current = { ...detail, breach };
      if (webhooks.length > 0 && JSON.stringify(current) !== summary.detail) {
        await writeDetail(ctx, summary, current, now);
      }
      // It told of the hub failing, and the hub reads again while endpoints still fail: an update says so.
      if (detail.hubFailing && !hubFailing && webhooks.length > 0) await untell(ctx, summary.id, now);
      continue;
    }
    const content = await summaryContent(ctx, links, summary, false);
    await resolveIncident(ctx, links, summary, now, content.webhooks);
  }
}
