import "server-only";
import { sql } from "kysely";
import { parseDetail } from "@/lib/domain/alerts/incident-detail";
import { HOUR_MS } from "@/lib/domain/watch/hourly-counts";
import type { StoreContext } from "@/lib/server/store/context";

/**
 * What /metrics reads from the store, one query each: summaries kept as logs are written (the
 * watch's state, the hourly counts), never the logs, so a scrape costs the same few queries
 * whatever the history holds. Only watched webhooks count: every per-webhook read starts from
 * `watches`.
 */

/** The windows counts are read over: from the start of the clock hour `hours` before the current one until now (the store counts per clock hour). */
export const WINDOWS = [
  { label: "1h", hours: 1 },
  { label: "24h", hours: 24 },
] as const;
export type WindowLabel = (typeof WINDOWS)[number]["label"];

function windowStart(hours: number, now: number): number {
  return Math.floor(now / HOUR_MS) * HOUR_MS - hours * HOUR_MS;
}

/** Per-window sums of `column` over the hourly rows read, each over those whose `hour` falls in its window. */
function windowSums(column: "success" | "failed" | "calls", now: number) {
  return WINDOWS.map(({ label, hours }) =>
    sql<number>`sum(case when hour >= ${windowStart(hours, now)} then ${sql.ref(column)} else 0 end)`.as(
      `${column}_${label}`,
    ),
  );
}

export interface WatchedWebhook {
  webhookId: string;
  appId: string;
  /** The name people gave the application in their sessions (alert_applications); null when none was kept. */
  application: string | null;
  watch: string;
  active: number | null;
  numberOfErrors: number | null;
  streakSince: number | null;
  streakLength: number;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
}

/** Every watched webhook with its latest state. */
export async function watchedWebhooks(ctx: StoreContext): Promise<WatchedWebhook[]> {
  const rows = await ctx.db
    .selectFrom("watches")
    .innerJoin("watch_state", "watch_state.webhook_id", "watches.webhook_id")
    .leftJoin("alert_applications", "alert_applications.app_id", "watches.app_id")
    .select([
      "watches.webhook_id",
      "watches.app_id",
      "watches.name",
      "alert_applications.name as application",
      "watch_state.active",
      "watch_state.number_of_errors",
      "watch_state.streak_since",
      "watch_state.streak_length",
      "watch_state.last_success_at",
      "watch_state.last_failure_at",
    ])
    .orderBy("watches.webhook_id")
    .execute();
  return rows.map((row) => ({
    webhookId: row.webhook_id,
    appId: row.app_id,
    application: row.application,
    watch: row.name,
    active: row.active,
    numberOfErrors: row.number_of_errors,
    streakSince: row.streak_since,
    streakLength: row.streak_length,
    lastSuccessAt: row.last_success_at,
    lastFailureAt: row.last_failure_at,
  }));
}

export type WindowCounts = Record<WindowLabel, number>;

const countsOf = (row: Record<string, unknown>, column: string): WindowCounts => ({
  "1h": Number(row[`${column}_1h`] ?? 0),
  "24h": Number(row[`${column}_24h`] ?? 0),
});

/**
 * Attempts per watched webhook in each window, from the hourly counts. Led by `watches`, so each
 * webhook's hours are one range of the (webhook_id, hour) key, whatever the retention keeps.
 */
export async function attemptsByWebhook(
  ctx: StoreContext,
  now: number,
): Promise<Array<{ webhookId: string; success: WindowCounts; failed: WindowCounts }>> {
  const rows = await ctx.db
    .selectFrom("watches")
    .innerJoin("watch_log_hours", (join) =>
      join
        .onRef("watch_log_hours.webhook_id", "=", "watches.webhook_id")
        .on("watch_log_hours.hour", ">=", windowStart(24, now)),
    )
    .select(["watches.webhook_id", ...windowSums("success", now), ...windowSums("failed", now)])
    .groupBy("watches.webhook_id")
    .execute();
  return rows.map((row) => ({
    webhookId: row.webhook_id,
    success: countsOf(row, "success"),
    failed: countsOf(row, "failed"),
  }));
}

/**
 * Failed attempts per watched webhook and status code in each window, from the hourly counts per
 * code: all of them (`watch_log_codes`), or those sent inside a maintenance window (`watch_maintenance_codes`).
 */
export async function failuresByCode(
  ctx: StoreContext,
  now: number,
  table: "watch_log_codes" | "watch_maintenance_codes" = "watch_log_codes",
): Promise<Array<{ webhookId: string; statusCode: number; failed: WindowCounts }>> {
  const rows = await ctx.db
    .selectFrom("watches")
    // Both tables have one shape: typed as the first, joined as `table`.
    .innerJoin(`${table} as codes` as "watch_log_codes as codes", (join) =>
      join.onRef("codes.webhook_id", "=", "watches.webhook_id").on("codes.hour", ">=", windowStart(24, now)),
    )
    .select(["watches.webhook_id", "codes.status_code", ...windowSums("failed", now)])
    .groupBy(["watches.webhook_id", "codes.status_code"])
    .execute();
  return rows.map((row) => ({
    webhookId: row.webhook_id,
    statusCode: row.status_code,
    failed: countsOf(row, "failed"),
  }));
}

/** The watcher's hub calls (of every instance) per outcome in each window. */
export async function hubCallsByOutcome(
  ctx: StoreContext,
  now: number,
): Promise<Array<{ outcome: string; calls: WindowCounts }>> {
  const rows = await ctx.db
    .selectFrom("watch_hub_calls")
    .select(["outcome", ...windowSums("calls", now)])
    .where("hour", ">=", windowStart(24, now))
    .groupBy("outcome")
    .execute();
  return rows.map((row) => ({ outcome: row.outcome, calls: countsOf(row, "calls") }));
}

/** The rule an incident leads with: its first condition's (a failing streak before a rate), else its scope. */
function leadingRule(row: { scope: string; detail: string }): string {
  try {
    return parseDetail(row.detail).conditions[0]?.rule ?? row.scope;
  } catch {
    return row.scope;
  }
}

/**
 * Firing incidents (one per failing webhook, one per application whose key is rejected, and
 * summaries) per application and the rule each leads with.
 */
export async function firingIncidents(
  ctx: StoreContext,
): Promise<Array<{ appId: string; application: string | null; rule: string; firing: number }>> {
  const rows = await ctx.db
    .selectFrom("alert_incidents")
    .leftJoin("alert_applications", "alert_applications.app_id", "alert_incidents.app_id")
    .select([
      "alert_incidents.app_id",
      "alert_applications.name",
      "alert_incidents.scope",
      "alert_incidents.detail",
    ])
    .where("alert_incidents.state", "=", "firing")
    .execute();
  const counts = new Map<
    string,
    { appId: string; application: string | null; rule: string; firing: number }
  >();
  for (const row of rows) {
    const rule = leadingRule(row);
    const key = `${row.app_id} ${rule}`;
    const count = counts.get(key) ?? { appId: row.app_id, application: row.name, rule, firing: 0 };
    counts.set(key, { ...count, firing: count.firing + 1 });
  }
  return [...counts.values()];
}

/** Deliveries waiting in the outbox (pending, or being sent), and when the oldest of them was recorded. */
export async function outboxBacklog(
  ctx: StoreContext,
): Promise<{ pending: number; oldestAt: number | null }> {
  const row = await ctx.db
    .selectFrom("alert_deliveries")
    .select((eb) => [eb.fn.countAll<number>().as("pending"), eb.fn.min("created_at").as("oldest")])
    .where("state", "in", ["pending", "sending"])
    .executeTakeFirstOrThrow();
  return { pending: Number(row.pending), oldestAt: row.oldest === null ? null : Number(row.oldest) };
}

/** Alert deliveries the store holds, per destination kind and state. */
export async function deliveriesByState(
  ctx: StoreContext,
): Promise<Array<{ kind: string; state: string; deliveries: number }>> {
  const rows = await ctx.db
    .selectFrom("alert_deliveries")
    .select((eb) => ["kind", "state", eb.fn.countAll<number>().as("deliveries")])
    .groupBy(["kind", "state"])
    .execute();
  return rows.map((row) => ({ kind: row.kind, state: row.state, deliveries: Number(row.deliveries) }));
}
