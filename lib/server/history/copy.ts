import "server-only";
import { randomUUID } from "node:crypto";
import pLimit from "p-limit";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { ScanPartial, ScanProgressLine } from "@/lib/domain/scan-answer";
import { isAppError, type AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { cancelledByClient } from "@/lib/server/hub/shared-reads";
import type { WebhookId } from "@/lib/server/hub/path-params";
import { questionKeyBudgets } from "@/lib/server/history/key-budget";
import { hubReader, olderPages, PAGE_SIZE, readNewest } from "@/lib/server/history/reader";
import { sleepUntil } from "@/lib/server/history/retry";
import type { StoreContext } from "@/lib/server/store/context";
import { writeLogs, type CursorChange } from "@/lib/server/watch/cursor";
import { sharedStoreContext, unavailable, withStore } from "@/lib/server/store/context";
import { countScope } from "@/lib/server/history/questions";

/**
 * How a question gets the copy of a webhook's history it needs (docs/history.md): it reads from
 * the hub only what the copy lacks, newer logs first, then older pages as far back as it reaches.
 * A copy belongs to the application whose key read it: any other key must read the hub's newest
 * page first, so a key the hub refuses reads nothing from it.
 */

export interface HistoryCall {
  apiKey: string;
  /** The console's id of the application whose key `apiKey` is. */
  appId: string;
  /** The request's signal: aborting it stops the reading (what was copied stays). */
  signal: AbortSignal;
}

/** How far back a question needs the copy to reach. */
export interface Reach {
  /** Every log sent at or after this (epoch ms); null: back to the first delivery. */
  since: number | null;
  /** The most of the newest deliveries to copy for it. */
  cap: number;
}

/** The copy as a question's answer sees it. */
export interface Copy {
  ctx: StoreContext;
  webhookId: string;
  /** When the copy was last brought up to date with the hub (epoch ms). */
  asOf: number;
  watched: boolean;
  /** From this creation time on, every log is copied; null with `complete`, the whole history. */
  completeFrom: number | null;
  complete: boolean;
  /** The hub's count of the webhook's logs when it was last read. */
  total: number;
  /** Why the copy reaches less far than the question asked; null when it reaches all of it. */
  partial: ScanPartial;
  /** Deliveries that arrived while older pages were read (the next question brings them in). */
  arrivedMeanwhile: number;
}

export interface CopyOptions {
  onProgress?: (progress: ScanProgressLine) => void;
  /** Read on (within the cap) until this is true of a log read from the hub, newest first. */
  until?: (log: WebhookLog) => boolean;
  /** Read the hub's newest page even when the copy is current (it lacks a delivery a person saw). */
  refresh?: boolean;
  /** Answer from the copy as it is, however old, with no hub call: the caller's key has just read the webhook. */
  asIs?: boolean;
}

/** How long a copy a question has just brought up to date answers the next ones without a hub call. */
const JUST_READ_MS = 5000;
/** Watcher intervals after which a watched webhook's copy is read again before it answers. */
const STALE_AFTER_INTERVALS = 5;
/** How long a question waits for another reading of the same webhook (a poll, another instance's question). */
const LEASE_WAIT_MS = 60_000;

/** A database failure is `store_unavailable` (an AppError passes as it is). */
export function stored<T>(work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    throw unavailable(error);
  });
}

function copyRow(ctx: StoreContext, webhookId: string) {
  return ctx.db
    .selectFrom("watch_state")
    .leftJoin("watches", "watches.webhook_id", "watch_state.webhook_id")
    .selectAll("watch_state")
    .select("watches.app_id as watchedBy")
    .where("watch_state.webhook_id", "=", webhookId)
    .executeTakeFirst();
}

type CopyRow = NonNullable<Awaited<ReturnType<typeof copyRow>>>;

/** Whether the copy holds what `reach` asks for. */
async function reaches(ctx: StoreContext, webhookId: string, row: CopyRow, reach: Reach): Promise<boolean> {
  if (row.history_complete === 1) return true;
  if (row.head_id === null || row.complete_from === null) return false;
  if (reach.since !== null && row.complete_from <= reach.since) return true;
  return (await countScope(ctx.db, { webhookId, from: row.complete_from }, null)) >= reach.cap;
}

/** Whether the copy already reaches as far back as `reach` asks: else a page shows the reading's progress. */
export async function copyReaches(webhookId: WebhookId, reach: Reach): Promise<boolean> {
  const id = webhookId.toLowerCase();
  return withStore(async (ctx) => {
    const row = await copyRow(ctx, id);
    return row !== undefined && (await reaches(ctx, id, row, reach));
  });
}

/** The copy may answer `call` without the hub's newest page: the watcher or this key read it lately. */
function current(row: CopyRow, call: HistoryCall, now: number): boolean {
  if (row.copied_at === null) return false;
  if (row.copied_by === call.appId && now - row.copied_at <= JUST_READ_MS) return true;
  const interval = serverConfig().watch.intervalSeconds * 1000;
  return row.watchedBy === call.appId && now - row.copied_at <= STALE_AFTER_INTERVALS * interval;
}

function copyOf(ctx: StoreContext, webhookId: string, row: CopyRow, partial: ScanPartial, arrived = 0): Copy {
  return {
    ctx,
    webhookId,
    asOf: row.copied_at ?? Date.now(),
    watched: row.watchedBy !== null,
    completeFrom: row.history_complete === 1 ? null : row.complete_from,
    complete: row.history_complete === 1,
    total: row.hub_total ?? 0,
    partial,
    arrivedMeanwhile: arrived,
  };
}

/** The copy does not reach as far as asked: its cap stopped it. */
export function capPartial(copy: { total: number }, cap: number, copied: number): ScanPartial {
  return {
    reason: "cap",
    message:
      `Only the newest ${copied.toLocaleString("en-US")} of ${copy.total.toLocaleString("en-US")} deliveries are in the ` +
      `console's copy (the cap, ${cap.toLocaleString("en-US")}). Scan further to include older ones.`,
  };
}

/** Readings in flight in this process, by webhook: a question joins one rather than reading the same pages. */
const readings = new Map<string, Promise<unknown>>();

/**
 * The copy brought up to date and as far back as `reach` (and `until`) asks, within the cap.
 * Throws when the hub's newest page cannot be read; a hub failure after that is said in `partial`.
 */
export async function copyFor(
  call: HistoryCall,
  webhookId: WebhookId,
  reach: Reach,
  options: CopyOptions = {},
): Promise<Copy> {
  let ctx: StoreContext;
  try {
    ctx = await sharedStoreContext();
  } catch (error) {
    throw unavailable(error);
  }
  const id = webhookId.toLowerCase();
  await expireCopiesNow(ctx);
  const giveUpAt = Date.now() + LEASE_WAIT_MS;
  for (;;) {
    const row = await stored(copyRow(ctx, id));
    const fresh = options.asIs || (row !== undefined && current(row, call, Date.now()));
    if (row && !options.until && !options.refresh && fresh && (await reaches(ctx, id, row, reach))) {
      await stored(touch(ctx, id, call.appId, row));
      return copyOf(ctx, id, row, null);
    }
    const running = readings.get(id);
    if (running) {
      await waitFor(running, call.signal);
      continue;
    }
    const owner = `${QUESTION_OWNER}${randomUUID()}`;
    if (!(await takeLease(ctx, id, owner))) {
      if (Date.now() > giveUpAt) throw unavailable(new Error("the webhook's copy stayed locked"));
      await sleepUntil(Date.now() + 250, call.signal);
      if (call.signal.aborted) throw cancelledByClient(call.signal.reason);
      continue;
    }
    const reading = read(ctx, id, owner, call, reach, options);
    readings.set(id, reading);
    try {
      return await reading;
    } finally {
      readings.delete(id);
      await releaseLease(ctx, id, owner).catch(() => undefined);
    }
  }
}

/** Waits for another question's reading to end (however it ends), or for `signal`. */
async function waitFor(reading: Promise<unknown>, signal: AbortSignal): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(cancelledByClient(signal.reason));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    void reading
      .then(
        () => resolve(),
        () => resolve(),
      )
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The leases questions hold are named so; the watcher's are named for its instance. */
const QUESTION_OWNER = "question:";

/**
 * Makes the state row exist, then takes its lease when it is free or held by a watcher: a person's
 * question does not wait behind the watcher's backfill, paced at WATCH_KEY_REQUESTS_PER_MINUTE (its
 * next write finds the lease gone and ends its poll, and the next claim goes on from the cursor).
 * Another question's lease is waited for.
 */
async function takeLease(ctx: StoreContext, webhookId: string, owner: string): Promise<boolean> {
  const now = Date.now();
  const leaseMs = serverConfig().watch.leaseSeconds * 1000;
  await stored(
    ctx.db
      .insertInto("watch_state")
      .values({ webhook_id: webhookId, head_id: null, tail_offset: null, next_poll_at: 0 })
      .onConflict((oc) => oc.column("webhook_id").doNothing())
      .execute(),
  );
  const taken = await stored(
    ctx.db
      .updateTable("watch_state")
      .set({ lease_owner: owner, lease_until: now + leaseMs })
      .where("webhook_id", "=", webhookId)
      .where((eb) =>
        eb.or([eb("lease_until", "<", now), eb("lease_owner", "not like", `${QUESTION_OWNER}%`)]),
      )
      .returning("webhook_id")
      .executeTakeFirst(),
  );
  return taken !== undefined;
}

async function releaseLease(ctx: StoreContext, webhookId: string, owner: string): Promise<void> {
  await ctx.db
    .updateTable("watch_state")
    .set({ lease_owner: null, lease_until: 0 })
    .where("webhook_id", "=", webhookId)
    .where("lease_owner", "=", owner)
    .execute();
}

/** An unwatched webhook's copy now belongs to the application whose key read it, used just now. */
async function touch(
  ctx: StoreContext,
  webhookId: string,
  appId: string,
  row: CopyRow,
  webhook?: WebhookLog["webhook"],
) {
  if (row.watchedBy) return;
  const now = Date.now();
  const summary = webhook ? { endpoint: webhook.endpoint, event_type: webhook.eventType } : {};
  await ctx.db
    .insertInto("log_copies")
    .values({
      webhook_id: webhookId,
      app_id: appId,
      endpoint: "",
      event_type: "Message",
      ...summary,
      used_at: now,
      created_at: now,
    })
    .onConflict((oc) => oc.column("webhook_id").doUpdateSet({ app_id: appId, used_at: now, ...summary }))
    .execute();
}

const created = (log: WebhookLog) => Date.parse(log.createdDate);

/** One question's reading under the webhook's lease: the newest logs, then older pages as far as asked. */
async function read(
  ctx: StoreContext,
  webhookId: string,
  owner: string,
  call: HistoryCall,
  reach: Reach,
  options: CopyOptions,
): Promise<Copy> {
  const { history, watch } = serverConfig();
  const leaseMs = watch.leaseSeconds * 1000;
  const startedAt = Date.now();
  const signal = call.signal;
  const hub = hubReader(
    call,
    webhookId as WebhookId,
    questionKeyBudgets(history.keyRequestsPerMinute),
    pLimit(history.concurrency),
  );
  const before = (await stored(copyRow(ctx, webhookId)))!;
  const watched = before.watchedBy !== null;
  const { until } = options;
  let done = false;

  const state = { ...before };
  const fresh = before.head_id === null;
  if (!fresh && !options.refresh && current(before, call, startedAt)) {
    // This key's question brought the copy up to date a moment ago.
    await stored(touch(ctx, webhookId, call.appId, before));
  } else {
    // The newest page first: it proves the key reads the webhook, and brings in what is new.
    const top = await readNewest(hub, before.head_id, fresh ? PAGE_SIZE : reach.cap, signal);
    await stored(touch(ctx, webhookId, call.appId, before, top.logs[0]?.webhook));
    const cursor: CursorChange = { head_id: top.logs[0]?.id.toLowerCase() ?? before.head_id };
    if (fresh || top.gap) {
      const end = fresh && !top.gap;
      Object.assign(cursor, {
        history_complete: end ? 1 : 0,
        complete_from: end || top.logs.length === 0 ? null : created(top.logs.at(-1)!),
      });
    }
    await stored(writeLogs(ctx, owner, webhookId, top.logs, cursor, leaseMs, startedAt, { watched }));
    const read = { hub_total: top.total, copied_at: startedAt, copied_by: call.appId };
    await stored(ctx.db.updateTable("watch_state").set(read).where("webhook_id", "=", webhookId).execute());
    Object.assign(state, cursor, read);
  }
  const total = state.hub_total ?? 0;

  // The contiguous part, newest first, that answers questions.
  let copied = await stored(countScope(ctx.db, { webhookId, from: state.complete_from }, null));
  let partial: ScanPartial = null;
  let arrived = 0;
  const progress = () =>
    options.onProgress?.({ type: "progress", read: copied, total, cap: reach.cap, matches: 0 });
  // The copy lacks logs the question reaches back to, or `until` has not been met yet.
  const short = () =>
    state.history_complete !== 1 &&
    !done &&
    (until !== undefined ||
      reach.since === null ||
      state.complete_from === null ||
      state.complete_from > reach.since);
  const wanted = () => copied < reach.cap && short();

  if (wanted()) {
    progress();
    // From the first log created when the oldest copied one was: logs of one millisecond may
    // straddle a page, and only some of them be copied (creation times are whole milliseconds).
    const after = state.complete_from === null ? null : state.complete_from + 1;
    const offset = await stored(countScope(ctx.db, { webhookId, from: after }, null));
    const maxPages = Math.ceil((reach.cap - offset) / PAGE_SIZE);
    const batches = olderPages(hub, offset, { parallel: history.concurrency, maxPages }, signal);
    try {
      for await (const pages of batches) {
        const logs = pages.flatMap((page) => page.data);
        arrived = Math.max(arrived, ...pages.map((page) => page.pagination.total - total));
        const end = pages.at(-1)!.data.length < PAGE_SIZE;
        const oldest = logs.length > 0 ? created(logs.at(-1)!) : null;
        const step: CursorChange = end
          ? { history_complete: 1, complete_from: null }
          : { complete_from: Math.min(oldest ?? Infinity, state.complete_from ?? Infinity) };
        const added = new Set(
          await stored(writeLogs(ctx, owner, webhookId, logs, step, leaseMs, Date.now(), { watched })),
        );
        // `until` sees the older logs as they are first copied, newest first, after those already copied.
        for (const log of logs) if (until && !done && added.has(log.id.toLowerCase())) done = until(log);
        Object.assign(state, step);
        copied += added.size;
        progress();
        if (!wanted()) break;
      }
    } catch (error) {
      if (signal.aborted) throw cancelledByClient(signal.reason);
      if (!isAppError(error) || error.code === "store_unavailable") throw error;
      partial = failedPartial(copied, error);
    }
  }
  const copy = copyOf(ctx, webhookId, state, partial, Math.max(0, arrived));
  return { ...copy, partial: partial ?? (short() ? capPartial(copy, reach.cap, copied) : null) };
}

function failedPartial(copied: number, error: AppError): ScanPartial {
  const retry = error.code === "rate_limited" ? " The hub kept limiting requests." : "";
  return {
    reason: "failed",
    code: error.code,
    message: `The copy stopped after ${copied.toLocaleString("en-US")} deliveries: ${error.message}${retry}`,
  };
}

/**
 * Deletes the copies of unwatched webhooks not used for HISTORY_COPY_MINUTES, then the least
 * recently used ones while all of them hold more than HISTORY_COPY_MAX_LOGS. Returns how many went.
 */
export async function expireCopies(ctx: StoreContext, now = Date.now()): Promise<number> {
  const { copyMinutes, copyMaxLogs } = serverConfig().history;
  const copies = await ctx.db
    .selectFrom("log_copies")
    .leftJoin("watch_state", "watch_state.webhook_id", "log_copies.webhook_id")
    .leftJoin("watches", "watches.webhook_id", "log_copies.webhook_id")
    .select([
      "log_copies.webhook_id",
      "log_copies.used_at",
      "watch_state.stored_logs",
      "watch_state.lease_until",
      "watches.app_id as watchedBy",
    ])
    .orderBy("log_copies.used_at", "desc")
    .execute();
  let kept = 0;
  const gone: string[] = [];
  for (const copy of copies) {
    // A copy being read right now is in use, however old its last use.
    if (copy.watchedBy || (copy.lease_until ?? 0) > now) continue;
    kept += copy.stored_logs ?? 0;
    if (now - copy.used_at > copyMinutes * 60_000 || kept > copyMaxLogs) gone.push(copy.webhook_id);
  }
  if (gone.length === 0) return 0;
  await ctx.db.transaction().execute(async (tx) => {
    await tx.deleteFrom("log_copies").where("webhook_id", "in", gone).execute();
    for (const table of ["watch_logs", "watch_log_hours", "watch_state"] as const) {
      await tx
        .deleteFrom(table)
        .where("webhook_id", "in", gone)
        .where("webhook_id", "not in", tx.selectFrom("watches").select("webhook_id"))
        .execute();
    }
  });
  return gone.length;
}

const EXPIRE_EVERY_MS = 60_000;
let lastExpiry = 0;

/** expireCopies, at most once a minute in this process; a database that fails is tried next time. */
export async function expireCopiesNow(ctx: StoreContext): Promise<void> {
  if (Date.now() - lastExpiry < EXPIRE_EVERY_MS) return;
  lastExpiry = Date.now();
  await expireCopies(ctx).catch(() => undefined);
}
