import "server-only";
import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import { MAINTENANCE_LABELS, scheduleOf, type MaintenanceWindowInput } from "@/lib/domain/inputs/maintenance";
import type { MaintenanceWindowView, SpanView } from "@/lib/domain/maintenance/view";
import {
  maintenanceSpans,
  maintenanceState,
  type MaintenanceState,
  type Span,
  type WindowSchedule,
} from "@/lib/domain/maintenance/windows";
import { AppError } from "@/lib/server/app-error";
import { toIso, type StoreContext } from "@/lib/server/store/context";
import type { StoreDatabase, StoreDb } from "@/lib/server/store/schema";

/**
 * Maintenance windows in the store (`maintenance_windows`): one application's, each on one of
 * its watched webhooks or on the whole application (webhook_id ""). What holds a webhook's alerts
 * and sets its failures apart is every window of its own and of its application, run together.
 */

/** Windows one application may have: each is read whenever its webhooks' alerts are judged. */
export const MAINTENANCE_MAX_WINDOWS = 100;

/** webhook_id of a window on the whole application. */
export const WHOLE_APPLICATION = "";

type WindowRow = Selectable<StoreDatabase["maintenance_windows"]>;

const scheduleOfRow = (row: Pick<WindowRow, "schedule">) => JSON.parse(row.schedule) as WindowSchedule;
const spanView = (span: Span | null): SpanView | null =>
  span && { start: toIso(span.start), end: toIso(span.end) };

function viewOf(row: WindowRow, names: ReadonlyMap<string, string>, now: number): MaintenanceWindowView {
  const schedule = scheduleOfRow(row);
  const state = maintenanceState([schedule], now);
  return {
    id: row.id,
    appId: row.app_id,
    webhookId: row.webhook_id === WHOLE_APPLICATION ? null : row.webhook_id,
    webhookName: names.get(row.webhook_id) ?? null,
    schedule,
    note: row.note,
    current: spanView(state.current),
    next: spanView(state.next),
    createdAt: toIso(Number(row.created_at)),
  };
}

function refuse(field: string, message: string): AppError {
  return new AppError("bad_request", message, { fields: { [field]: [message] } });
}

/**
 * Stores a window of `appId`: on one of its watched webhooks, or the whole application. Refused
 * by its field: a webhook it does not watch, a one-off window already over, one past the cap.
 */
export async function addWindow(
  ctx: StoreContext,
  appId: string,
  input: MaintenanceWindowInput,
  now = Date.now(),
): Promise<MaintenanceWindowView> {
  const schedule = scheduleOf(input);
  if (schedule.kind === "once" && schedule.endsAt <= now)
    throw refuse(
      "end",
      `${MAINTENANCE_LABELS["once.end"]}: this time has passed (${toIso(schedule.endsAt)}). Pick a time in the future.`,
    );
  const names = new Map<string, string>();
  if (input.webhookId) {
    const watch = await ctx.db
      .selectFrom("watches")
      .select(["webhook_id", "name"])
      .where("webhook_id", "=", input.webhookId)
      .where("app_id", "=", appId)
      .executeTakeFirst();
    if (!watch)
      throw refuse(
        "webhookId",
        `${MAINTENANCE_LABELS.webhookId}: this application does not watch ${input.webhookId}. ` +
          "Watch it first, or set the window on the whole application.",
      );
    names.set(watch.webhook_id, watch.name);
  }
  const { count } = await ctx.db
    .selectFrom("maintenance_windows")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("app_id", "=", appId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= MAINTENANCE_MAX_WINDOWS)
    throw refuse(
      "repeats",
      `${MAINTENANCE_LABELS.repeats}: this application has ${MAINTENANCE_MAX_WINDOWS} maintenance windows, the most it may have. ` +
        "Remove one it no longer needs, then add this one.",
    );
  const row: WindowRow = {
    id: randomUUID(),
    app_id: appId,
    webhook_id: input.webhookId ?? WHOLE_APPLICATION,
    schedule: JSON.stringify(schedule),
    note: input.note,
    ends_at: schedule.kind === "once" ? schedule.endsAt : null,
    created_at: now,
  };
  await ctx.db.insertInto("maintenance_windows").values(row).execute();
  return viewOf(row, names, now);
}

/**
 * An application's windows (`webhookId` given: that webhook's own and the whole application's),
 * each with where it stands at `now`: those on first, then by their next start; one-off windows
 * that ended are left out.
 */
export async function listWindows(
  ctx: StoreContext,
  appId: string,
  webhookId: string | null,
  now = Date.now(),
): Promise<MaintenanceWindowView[]> {
  const rows = await ctx.db
    .selectFrom("maintenance_windows")
    .leftJoin("watches", "watches.webhook_id", "maintenance_windows.webhook_id")
    .selectAll("maintenance_windows")
    .select("watches.name")
    .where("maintenance_windows.app_id", "=", appId)
    .$if(webhookId !== null, (qb) =>
      qb.where("maintenance_windows.webhook_id", "in", [webhookId ?? "", WHOLE_APPLICATION]),
    )
    .execute();
  const names = new Map(
    rows.flatMap((row) => (row.name === null ? [] : [[row.webhook_id, row.name] as const])),
  );
  const order = (view: MaintenanceWindowView) => view.current?.start ?? view.next?.start ?? "\uffff";
  return rows
    .map((row) => viewOf(row, names, now))
    .filter((view) => view.current || view.next)
    .sort((a, b) => order(a).localeCompare(order(b)) || a.id.localeCompare(b.id));
}

/** Removes a window of `appId`; not_found when it is not one of its. */
export async function removeWindow(ctx: StoreContext, appId: string, id: string): Promise<void> {
  const removed = await ctx.db
    .deleteFrom("maintenance_windows")
    .where("id", "=", id)
    .where("app_id", "=", appId)
    .returning("id")
    .executeTakeFirst();
  if (!removed)
    throw new AppError(
      "not_found",
      "This maintenance window is not one of this application's (it may have been removed). Reload the page.",
    );
}

/**
 * The schedules of these applications' windows (all when null): those that apply to each watched
 * webhook that has any (its own and its application's), and each application's own (on the
 * whole application: they also hold what is the application's, a rejected key, a summary).
 */
async function schedulesOf(db: StoreDb, appIds: readonly string[] | null) {
  const webhooks = new Map<string, WindowSchedule[]>();
  const applications = new Map<string, WindowSchedule[]>();
  const rows = await db
    .selectFrom("maintenance_windows")
    .select(["app_id", "webhook_id", "schedule"])
    .$if(appIds !== null, (qb) => qb.where("app_id", "in", appIds!.length > 0 ? appIds! : [""]))
    .execute();
  if (rows.length === 0) return { webhooks, applications };
  const own = new Map<string, WindowSchedule[]>();
  for (const row of rows) {
    const [into, key] =
      row.webhook_id === WHOLE_APPLICATION ? [applications, row.app_id] : [own, row.webhook_id];
    into.set(key, [...(into.get(key) ?? []), scheduleOfRow(row)]);
  }
  const watches = await db
    .selectFrom("watches")
    .select(["webhook_id", "app_id"])
    .where("app_id", "in", [...new Set(rows.map((row) => row.app_id))])
    .execute();
  for (const watch of watches) {
    const schedules = [...(own.get(watch.webhook_id) ?? []), ...(applications.get(watch.app_id) ?? [])];
    if (schedules.length > 0) webhooks.set(watch.webhook_id, schedules);
  }
  return { webhooks, applications };
}

/**
 * Where each watched webhook of these applications (all when null) stands at `now`, for those
 * that have a window: in one now (until when), and the next.
 */
export async function maintenanceByWebhook(
  ctx: StoreContext,
  appIds: readonly string[] | null,
  now: number,
): Promise<Map<string, MaintenanceState>> {
  const { webhooks } = await schedulesOf(ctx.db, appIds);
  return new Map(
    [...webhooks].map(([webhookId, schedules]) => [webhookId, maintenanceState(schedules, now)]),
  );
}

/**
 * What holds one application's alerts now: its webhooks in a window, each until when, and under
 * WHOLE_APPLICATION, the application's own incidents while a window is on the whole application.
 */
export async function maintenanceHolds(
  ctx: StoreContext,
  appId: string,
  now: number,
): Promise<Map<string, number>> {
  const { webhooks, applications } = await schedulesOf(ctx.db, [appId]);
  const holds = new Map<string, number>();
  const hold = (key: string, schedules: WindowSchedule[]) => {
    const { current } = maintenanceState(schedules, now);
    if (current) holds.set(key, current.end);
  };
  for (const [webhookId, schedules] of webhooks) hold(webhookId, schedules);
  hold(WHOLE_APPLICATION, applications.get(appId) ?? []);
  return holds;
}

/** Until when one webhook (or with WHOLE_APPLICATION, the application itself) is in maintenance; null when it is not. */
export async function maintenanceUntil(
  ctx: StoreContext,
  appId: string,
  webhookId: string,
  now: number,
): Promise<number | null> {
  return (await maintenanceHolds(ctx, appId, now)).get(webhookId) ?? null;
}

/** The spans of one watched webhook's windows over [from, to]: to mark its failures sent inside one. */
export async function maintenanceSpansOf(
  db: StoreDb,
  webhookId: string,
  from: number,
  to: number,
): Promise<Span[]> {
  const rows = await db
    .selectFrom("maintenance_windows")
    .select("schedule")
    .where((eb) =>
      eb.or([
        eb("webhook_id", "=", webhookId),
        eb.and([
          eb("webhook_id", "=", WHOLE_APPLICATION),
          eb("app_id", "in", eb.selectFrom("watches").select("app_id").where("webhook_id", "=", webhookId)),
        ]),
      ]),
    )
    .execute();
  return rows.length === 0 ? [] : maintenanceSpans(rows.map(scheduleOfRow), from, to);
}

/** Moves an application's windows to its new id (its key was handed over). */
export async function moveWindowsTo(db: StoreDb, oldAppId: string, appId: string): Promise<void> {
  await db.updateTable("maintenance_windows").set({ app_id: appId }).where("app_id", "=", oldAppId).execute();
}

/** Deletes one-off windows that ended before `cut`: the failures they marked are pruned with them. */
export async function pruneWindows(db: StoreDb, cut: number): Promise<void> {
  await db
    .deleteFrom("maintenance_windows")
    .where("ends_at", "is not", null)
    .where("ends_at", "<", cut)
    .execute();
}
