import "server-only";
import { firstHourOf, HOUR_MS, hourlyCounts, total } from "@/lib/domain/watch/hourly-counts";
import { compareOverviewRows, type OverviewRow, type WatcherHealth } from "@/lib/domain/watch/overview";
import { isoOrNull, toIso, type StoreContext } from "@/lib/server/store/context";
import { maintenanceByWebhook } from "@/lib/server/maintenance/windows-store";
import type { MaintenanceState } from "@/lib/domain/maintenance/windows";
import type { WebhookMaintenance } from "@/lib/domain/maintenance/view";

/**
 * The overview and the watcher's health, read from the watches, their state and the hourly
 * counts: never from the logs themselves, so the cost follows the number of watches, not of logs.
 */

const DAY = 86_400_000;

/** One row per watch of these applications, worst first (compareOverviewRows). */
export async function overviewRows(
  ctx: StoreContext,
  appIds: readonly string[],
  now = Date.now(),
): Promise<OverviewRow[]> {
  if (appIds.length === 0) return [];
  const rows = await ctx.db
    .selectFrom("watches")
    .innerJoin("watch_state", "watch_state.webhook_id", "watches.webhook_id")
    .leftJoin("watch_keys", "watch_keys.app_id", "watches.app_id")
    .selectAll("watch_state")
    .select(["watches.app_id", "watches.name", "watches.endpoint", "watch_keys.rejected_at"])
    .where("watches.app_id", "in", appIds)
    .execute();
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.webhook_id);
  const firstHour = firstHourOf(now);
  const [hours, firstChanges, maintenance] = await Promise.all([
    ctx.db
      .selectFrom("watch_log_hours")
      .selectAll()
      .where("webhook_id", "in", ids)
      .where("hour", ">=", firstHour)
      .execute(),
    ctx.db
      .selectFrom("watch_timeline")
      .select(["webhook_id", (eb) => eb.fn.min("at").as("at")])
      .where("webhook_id", "in", ids)
      .where("kind", "=", "errors")
      .where("at", ">", now - DAY)
      .groupBy("webhook_id")
      .execute(),
    maintenanceOf(ctx, appIds, now),
  ]);
  const baselines = new Map<string, number>();
  if (firstChanges.length > 0) {
    const events = await ctx.db
      .selectFrom("watch_timeline")
      .select(["webhook_id", "previous", "number_of_errors"])
      .where("kind", "=", "errors")
      .where((eb) =>
        eb.or(
          firstChanges.map((c) => eb.and([eb("webhook_id", "=", c.webhook_id), eb("at", "=", Number(c.at))])),
        ),
      )
      .execute();
    for (const event of events) baselines.set(event.webhook_id, event.previous ?? event.number_of_errors);
  }
  const hoursOf = new Map<string, Array<{ hour: number; success: number; failed: number }>>();
  for (const hour of hours) {
    const list = hoursOf.get(hour.webhook_id);
    if (list) list.push(hour);
    else hoursOf.set(hour.webhook_id, [hour]);
  }
  return rows
    .map((row): OverviewRow => {
      const counts = hourlyCounts(firstHour, hoursOf.get(row.webhook_id) ?? []);
      const failed24h = total(counts.failed);
      const attempts24h = failed24h + total(counts.success);
      const errors = row.number_of_errors;
      return {
        webhookId: row.webhook_id,
        appId: row.app_id,
        name: row.name,
        endpoint: row.endpoint,
        active: row.active === null ? null : row.active === 1,
        numberOfErrors: errors,
        errorsChange: errors === null ? null : errors - (baselines.get(row.webhook_id) ?? errors),
        hours: counts,
        attempts24h,
        failed24h,
        successRate24h:
          attempts24h === 0 ? null : Math.round(((attempts24h - failed24h) / attempts24h) * 1000) / 10,
        failingStreak:
          row.streak_since === null
            ? null
            : {
                since: toIso(row.streak_since),
                length: row.streak_length,
                atLeast: row.last_success_at === null && row.history_complete !== 1,
              },
        lastSuccess:
          row.last_success_at === null
            ? null
            : { at: toIso(row.last_success_at), logId: row.last_success_id! },
        lastFailure:
          row.last_failure_at === null
            ? null
            : {
                at: toIso(row.last_failure_at),
                logId: row.last_failure_id!,
                statusCode: row.last_failure_code!,
              },
        asOf: isoOrNull(row.polled_at),
        pollError:
          row.poll_error_code === null
            ? null
            : {
                code: row.poll_error_code,
                message: row.poll_error_message ?? "",
                at: toIso(row.poll_error_at ?? now),
              },
        keyRejected: row.rejected_at !== null,
        maintenance: maintenance.get(row.webhook_id) ?? null,
      };
    })
    .sort(compareOverviewRows);
}

/** Each webhook's maintenance: the current window's end, the next, and failures counted apart since its hour. */
async function maintenanceOf(
  ctx: StoreContext,
  appIds: readonly string[],
  now: number,
): Promise<Map<string, WebhookMaintenance>> {
  const states = await maintenanceByWebhook(ctx, appIds, now);
  const current = [...states].filter(
    (entry): entry is [string, MaintenanceState & { current: { start: number } }] =>
      Boolean(entry[1].current),
  );
  const counts =
    current.length === 0
      ? []
      : await ctx.db
          .selectFrom("watch_maintenance_codes")
          .select(["webhook_id", (eb) => eb.fn.sum<number | string>("failed").as("failed")])
          .where((eb) =>
            eb.or(
              current.map(([webhookId, state]) =>
                eb.and([
                  eb("webhook_id", "=", webhookId),
                  eb("hour", ">=", Math.floor(state.current.start / HOUR_MS) * HOUR_MS),
                ]),
              ),
            ),
          )
          .groupBy("webhook_id")
          .execute();
  const failures = new Map(counts.map((row) => [row.webhook_id, Number(row.failed)]));
  return new Map(
    [...states].map(([webhookId, state]) => [
      webhookId,
      {
        until: state.current && toIso(state.current.end),
        next: state.next && toIso(state.next.start),
        failures: state.current ? (failures.get(webhookId) ?? 0) : 0,
      },
    ]),
  );
}

/** The watcher's health over the watches of these applications. */
export async function watcherHealth(
  ctx: StoreContext,
  appIds: readonly string[],
  now = Date.now(),
): Promise<WatcherHealth> {
  const rows =
    appIds.length === 0
      ? []
      : await ctx.db
          .selectFrom("watches")
          .innerJoin("watch_state", "watch_state.webhook_id", "watches.webhook_id")
          .leftJoin("watch_keys", "watch_keys.app_id", "watches.app_id")
          .selectAll("watch_state")
          .select(["watches.app_id", "watch_keys.rejected_at"])
          .where("watches.app_id", "in", appIds)
          .execute();
  const health = { watched: rows.length, lagSeconds: 0, pollsFailing: 0, backfilling: 0 };
  const rejected = new Set<string>();
  let oldest: number | null = null;
  for (const row of rows) {
    if (row.rejected_at !== null) {
      rejected.add(row.app_id);
      continue;
    }
    if (row.lease_until < now)
      health.lagSeconds = Math.max(health.lagSeconds, Math.floor((now - row.next_poll_at) / 1000));
    if (row.polled_at !== null) oldest = oldest === null ? row.polled_at : Math.min(oldest, row.polled_at);
    if (row.poll_error_code !== null) health.pollsFailing++;
    if (row.tail_offset !== null) health.backfilling++;
  }
  return {
    ...health,
    oldestDataSeconds: oldest === null ? null : Math.max(0, Math.floor((now - oldest) / 1000)),
    keysRejected: [...rejected].sort(),
  };
}
