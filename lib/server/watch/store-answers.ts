import "server-only";
import type { FindTarget } from "@/lib/domain/history/find-input";
import type { HistoryQuestion } from "@/lib/domain/history/question";
import type { ScanResultLine } from "@/lib/domain/scan-answer";
import type { StoredLog } from "@/lib/domain/watch/stored-log";
import type { Webhook } from "@/lib/domain/hub-schemas";
import { formatUtc } from "@/lib/domain/format-time";
import { formatAge } from "@/lib/domain/watching/format-age";
import { serverConfig } from "@/lib/server/config";
import { toIso, type StoreContext } from "@/lib/server/watch/context";
import { sharedStoreContext, unavailable } from "@/lib/server/watch/store";
import * as logs from "@/lib/server/watch/stored-logs";

/**
 * History questions of a watched webhook answered from the watch's store, with no hub call: used
 * when the session's application watches the webhook, the watch has read its history up to the
 * backfill horizon, its last poll is recent, and the question lies within what the store holds.
 * Otherwise the caller scans the hub, and says why (`why`).
 */

/** Said when the database fails while the store would answer: the scan answers instead. */
export const STORE_DOWN = "the watch's database is not answering.";

/** Polls missed before the store's copy counts as too old to answer (the scan answers instead). */
const STALE_AFTER_INTERVALS = 5;
/** How long the store may take to say whether it can answer, before the scan goes ahead without it. */
const LOOKUP_TIMEOUT_MS = 2000;

/** The store's result line, before the route names its source: its rows are stored logs. */
export type StoredResult = Omit<ScanResultLine, "source" | "rows"> & { rows: StoredLog[] };

export interface FoundInStore {
  log: StoredLog;
  /** Its place among the stored logs, newest first. */
  position: number;
  read: number;
  total: number;
}

export interface WatchedHistory {
  /** ISO time of the watcher's last answered poll: the store's copy is as of then. */
  asOf: string;
  /**
   * Why the store cannot answer this question exactly, or null when it can. `export`: every
   * matching log is written whole, so no body the store cut may be among them.
   */
  cannotAnswer(question: HistoryQuestion, use: "rows" | "export"): Promise<string | null>;
  /** The result line a scan of the whole history would give: a page of matches, their count and health. */
  result(
    question: HistoryQuestion,
    options: { cap: number; offset: number; limit: number; followStreak: boolean },
    now: number,
  ): Promise<StoredResult>;
  /** The newest stored log answering the target, or null (it may be newer or older than the store holds). */
  find(target: FindTarget): Promise<FoundInStore | null>;
  /** Every stored log matching the question, newest first, in batches. */
  stream(question: HistoryQuestion): AsyncIterable<StoredLog[]>;
}

interface WatchedState {
  polledAt: number | null;
  backfilling: boolean;
  historyComplete: boolean;
  completeFrom: number | null;
  keyRejected: boolean;
}

async function stateOf(ctx: StoreContext, appId: string, webhookId: string): Promise<WatchedState | null> {
  const row = await ctx.db
    .selectFrom("watches")
    .innerJoin("watch_state", "watch_state.webhook_id", "watches.webhook_id")
    .leftJoin("watch_keys", "watch_keys.app_id", "watches.app_id")
    .select([
      "watch_state.polled_at",
      "watch_state.tail_offset",
      "watch_state.history_complete",
      "watch_state.complete_from",
      "watch_keys.rejected_at",
    ])
    .where("watches.webhook_id", "=", webhookId)
    .where("watches.app_id", "=", appId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    polledAt: row.polled_at,
    backfilling: row.tail_offset !== null,
    historyComplete: row.history_complete === 1,
    completeFrom: row.complete_from,
    keyRejected: row.rejected_at !== null,
  };
}

/** Errors of the database once the store answers: `store_unavailable`, as every store read. */
async function guarded<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw unavailable(error);
  }
}

/**
 * Reads the shared store, or says why it did not answer: it took longer than LOOKUP_TIMEOUT_MS
 * (the read goes on, unawaited), or the database failed.
 */
async function lookUp<T>(read: (ctx: StoreContext) => Promise<T>): Promise<T | "timeout" | "down"> {
  const work = (async () => read(await sharedStoreContext()))();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), LOOKUP_TIMEOUT_MS);
  });
  try {
    const looked = await Promise.race([work, timeout]);
    if (looked === "timeout") work.catch(() => undefined);
    return looked;
  } catch {
    return "down";
  } finally {
    clearTimeout(timer);
  }
}

/** Why the store does not answer for this watched webhook at all, or null when it may. */
function notReady(state: WatchedState, now: number, intervalSeconds: number): string | null {
  if (state.keyRejected)
    return "the hub rejects the key the watch polls with, so its copy is not kept up to date.";
  if (state.polledAt === null || state.backfilling)
    return "the watch is still reading this webhook's history; it answers once it has caught up.";
  if (now - state.polledAt > STALE_AFTER_INTERVALS * intervalSeconds * 1000)
    return `the watch last read this webhook ${formatAge(toIso(state.polledAt), now)} ago, too long to answer from its copy.`;
  return null;
}

/**
 * The store's answers for a webhook the application `appId` watches, or why the scan must answer
 * (not watched, still filling, stale, or the database not answering in time).
 */
export async function watchedHistory(
  appId: string,
  webhookId: string,
  now = Date.now(),
): Promise<WatchedHistory | { why: string }> {
  const looked = await lookUp((ctx) => watchedHistoryIn(ctx, appId, webhookId, now));
  if (looked === "timeout") return { why: "the watch's database did not answer in time." };
  return looked === "down" ? { why: STORE_DOWN } : looked;
}

/** `watchedHistory` over a given store (tests give theirs). */
export async function watchedHistoryIn(
  ctx: StoreContext,
  appId: string,
  webhookId: string,
  now = Date.now(),
): Promise<WatchedHistory | { why: string }> {
  const state = await stateOf(ctx, appId, webhookId);
  if (!state) return { why: "this webhook is not watched by this application." };
  const why = notReady(state, now, serverConfig().watch.intervalSeconds);
  return why ? { why } : answersOf(ctx, webhookId, state);
}

function answersOf(ctx: StoreContext, webhookId: string, state: WatchedState): WatchedHistory {
  const holdsFrom = (since: number | null): boolean =>
    state.historyComplete || (since !== null && state.completeFrom !== null && since >= state.completeFrom);

  return {
    asOf: toIso(state.polledAt!),

    async cannotAnswer(question, use) {
      if (!holdsFrom(question.since)) {
        return state.completeFrom === null
          ? "the watch does not hold this webhook's whole history, and this question reaches back to its start."
          : `the watch holds this webhook's deliveries from ${formatUtc(toIso(state.completeFrom))} on, and this question reaches further back.`;
      }
      // The database lowers ASCII letters only: other text is matched case-blind by the scan.
      if (question.contains && /[^\x20-\x7e]/.test(question.contains))
        return "Response contains with characters beyond plain ASCII is matched by the scan.";
      const cut =
        use === "export"
          ? await guarded(() => logs.cutBodyAmong(ctx, webhookId, { ...question, contains: null }))
          : question.contains !== null && (await guarded(() => logs.cutBodyAmong(ctx, webhookId, question)));
      if (cut) {
        return use === "export"
          ? "some of these responses are longer than the watch keeps (WATCH_BODY_CAP_BYTES), and an export writes them whole."
          : "some stored responses are cut at the watch's cap (WATCH_BODY_CAP_BYTES), and Response contains needs them whole.";
      }
      return null;
    },

    result: (question, options, now) =>
      guarded(async () => {
        const [page, summary, read, total] = await Promise.all([
          logs.queryLogs(ctx, webhookId, question, { offset: options.offset, limit: options.limit }),
          logs.health(ctx, webhookId, question, { now, followStreak: options.followStreak }),
          logs.countStored(ctx, webhookId, question.since),
          logs.countStored(ctx, webhookId, null),
        ]);
        return {
          type: "result",
          read,
          total,
          cap: options.cap,
          matches: page.total,
          offset: options.offset,
          limit: options.limit,
          rows: page.rows,
          summary,
          partial: null,
          arrivedMeanwhile: 0,
        };
      }),

    find: (target) =>
      guarded(async () => {
        const [found, total] = await Promise.all([
          logs.findLog(ctx, webhookId, target),
          logs.countStored(ctx, webhookId, null),
        ]);
        return found && { log: found.log, position: found.index, read: found.index + 1, total };
      }),

    async *stream(question) {
      try {
        yield* logs.streamLogs(ctx, webhookId, question);
      } catch (error) {
        throw unavailable(error);
      }
    },
  };
}

/** A watched webhook as the watcher last read it from the hub, and when. */
export interface StoredWebhook {
  webhook: Webhook;
  asOf: string;
}

/**
 * The webhook as the application's watch last read it, for when the hub does not answer; null
 * when it is not watched by `appId`, was never read, or the database does not answer in time.
 */
export async function storedWebhook(appId: string, webhookId: string): Promise<StoredWebhook | null> {
  const looked = await lookUp((ctx) => storedWebhookIn(ctx, appId, webhookId));
  return looked === "timeout" || looked === "down" ? null : looked;
}

/** `storedWebhook` over a given store (tests give theirs). */
export async function storedWebhookIn(
  ctx: StoreContext,
  appId: string,
  webhookId: string,
): Promise<StoredWebhook | null> {
  const row = await ctx.db
    .selectFrom("watches")
    .innerJoin("watch_state", "watch_state.webhook_id", "watches.webhook_id")
    .select([
      "watches.webhook_id",
      "watches.endpoint",
      "watches.event_type",
      "watch_state.active",
      "watch_state.number_of_errors",
      "watch_state.polled_at",
    ])
    .where("watches.webhook_id", "=", webhookId.toLowerCase())
    .where("watches.app_id", "=", appId)
    .executeTakeFirst();
  if (!row || row.polled_at === null || row.active === null || row.number_of_errors === null) return null;
  return {
    webhook: {
      id: row.webhook_id,
      endpoint: row.endpoint,
      eventType: row.event_type,
      active: row.active === 1,
      numberOfErrors: row.number_of_errors,
    },
    asOf: toIso(row.polled_at),
  };
}
