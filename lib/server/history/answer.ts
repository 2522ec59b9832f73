import "server-only";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { HistorySource } from "@/lib/domain/history/answer-source";
import type { FindTarget } from "@/lib/domain/history/find-input";
import { EMPTY_QUESTION, type HistoryQuestion } from "@/lib/domain/history/question";
import type { ScanResultLine } from "@/lib/domain/scan-answer";
import type { StoredLog } from "@/lib/domain/watch/stored-log";
import type { WebhookId } from "@/lib/server/hub/path-params";
import {
  beginScan,
  findInHistory,
  openHistory,
  streamMatches,
  type FindResult,
  type MatchStream,
  type ScanCall,
  type ScanOptions,
} from "@/lib/server/history/scan";
import { issueScope } from "@/lib/server/watch/issue-logs";
import { sharedStoreContext, unavailable } from "@/lib/server/watch/store";
import {
  STORE_DOWN,
  watchedHistory,
  type StoredResult,
  type WatchedHistory,
} from "@/lib/server/watch/store-answers";

/**
 * Every history question of the webhook page (health, the filtered table, Find and `?log=`,
 * exports) answered by the watch's store when it can answer exactly, else by a scan of the hub,
 * and each answer says which (`source`). See lib/server/watch/store-answers.ts for when the store answers.
 */

export interface HistoryCall extends ScanCall {
  /** The console's id of the application whose key `apiKey` is: only its watches answer. */
  appId: string;
}

type AnswerOptions = Omit<ScanOptions, "onProgress">;

/**
 * The question narrowed to one failure issue's deliveries (unchanged without `issueId`). Issues
 * live in the watch's store, so it is read there; the question starts at the issue's first
 * failure, which lets a scan stop there and the store answer when it holds no older history.
 */
export async function narrowToIssue(
  appId: string,
  webhookId: WebhookId,
  question: HistoryQuestion,
  issueId: string | undefined,
): Promise<HistoryQuestion> {
  if (!issueId) return question;
  const scope = await sharedStoreContext()
    .then((ctx) => issueScope(ctx, appId, webhookId, issueId))
    .catch((error: unknown) => {
      throw unavailable(error);
    });
  const since = Math.max(question.since ?? scope.firstFailureAt, scope.firstFailureAt);
  return { ...question, since, issue: scope.filter };
}

/** The store's answers when it can answer this question exactly, else why the scan must. */
async function storeFor(
  call: HistoryCall,
  webhookId: WebhookId,
  question: HistoryQuestion,
  use: "rows" | "export",
  now: number,
): Promise<WatchedHistory | { why: string }> {
  const watched = await watchedHistory(call.appId, webhookId, now);
  if ("why" in watched) return watched;
  const why = await watched.cannotAnswer(question, use).catch(() => STORE_DOWN);
  return why === null ? watched : { why };
}

/**
 * Starts answering a question: from the store, or by a scan whose first page is read now (so a
 * refused key or an unknown webhook is thrown here, before any answer began).
 */
export async function beginAnswer(
  call: HistoryCall,
  webhookId: WebhookId,
  question: HistoryQuestion,
  options: AnswerOptions,
  now = Date.now(),
): Promise<{ run(onProgress?: ScanOptions["onProgress"]): Promise<ScanResultLine> }> {
  const watched = await storeFor(call, webhookId, question, "rows", now);
  const stored = "why" in watched ? watched : await storeResult(watched, question, options, now);
  if (!("why" in stored)) return { run: async () => stored };
  const scan = await beginScan(call, webhookId, question, options, now);
  const source: HistorySource = { from: "scan", why: stored.why };
  return { run: async (onProgress) => ({ ...(await scan.run(onProgress)), source }) };
}

/** The store's result line, or why it is not the one a scan would give. */
async function storeResult(
  watched: WatchedHistory,
  question: HistoryQuestion,
  options: AnswerOptions,
  now: number,
): Promise<ScanResultLine | { why: string }> {
  const { cap, offset, limit, followStreak = false } = options;
  let result: StoredResult;
  try {
    result = await watched.result(question, { cap, offset, limit, followStreak }, now);
  } catch {
    return { why: STORE_DOWN };
  }
  if (result.rows.some((row) => row.responseBodyTruncated))
    return {
      why: "some of these responses are longer than the watch keeps (WATCH_BODY_CAP_BYTES), and the table shows them whole.",
    };
  if (followStreak && result.summary.failingStreak?.atLeast)
    return { why: "the current failing streak began before the oldest delivery the watch holds." };
  return { ...result, source: { from: "watch", asOf: watched.asOf } };
}

export type FindAnswer = FindResult & { source: HistorySource };

/** The newest delivery answering the target: from the store when it holds it, else by a scan. */
export async function findDelivery(
  call: HistoryCall,
  webhookId: WebhookId,
  target: FindTarget,
  cap: number,
): Promise<FindAnswer> {
  const watched = await watchedHistory(call.appId, webhookId);
  if (!("why" in watched)) {
    const found = await watched.find(target).catch(() => null);
    if (found && !found.log.responseBodyTruncated)
      return { found: true, ...found, source: { from: "watch", asOf: watched.asOf } };
  }
  const why =
    "why" in watched
      ? watched.why
      : "the watch's copy does not hold it whole: it may be newer than its last poll, older than it keeps, or longer than it keeps (WATCH_BODY_CAP_BYTES).";
  return { ...(await findInHistory(call, webhookId, target, cap)), source: { from: "scan", why } };
}

/** The matched logs one batch at a time for an export, and where they come from. */
export async function openExport(
  call: HistoryCall,
  webhookId: WebhookId,
  question: HistoryQuestion,
  cap: number,
): Promise<MatchStream & { source: HistorySource }> {
  const watched = await storeFor(call, webhookId, question, "export", Date.now());
  if ("why" in watched) {
    const source: HistorySource = { from: "scan", why: watched.why };
    return Object.assign(await streamMatches(call, webhookId, question, cap), { source });
  }
  const batches = watched.stream(question)[Symbol.asyncIterator]();
  return {
    source: { from: "watch", asOf: watched.asOf },
    async next(): Promise<WebhookLog[] | null> {
      const batch = await batches.next();
      return batch.done ? null : batch.value;
    },
    close() {
      void batches.return?.();
    },
  };
}

/** Takes a webhook's logs one at a time, newest first; false once nothing older can change its answer. */
export interface LogVisitor {
  add(log: WebhookLog): boolean;
  /**
   * The logs its answer shows, or null while it lacks one it needs (a delivery newer than the
   * watch's last poll): the store answers only with all of them, none cut at its body cap.
   */
  shown(): WebhookLog[] | null;
}

export interface VisitedHistory<V> {
  visitor: V;
  /** Why the visitor got no further: it had what it needed, it saw the whole history, or the scan's cap. */
  stop: { reason: "done" } | { reason: "complete" } | { reason: "cap"; read: number; total: number };
  source: HistorySource;
}

/**
 * Hands a webhook's logs, newest first, to a visitor made by `start` until it has what it needs
 * (the last success before a failure, a support bundle's incident): from the watch's store when it
 * holds them, else through the scan with a fresh visitor. A hub failure midway is thrown.
 */
export async function visitHistory<V extends LogVisitor>(
  call: HistoryCall,
  webhookId: WebhookId,
  cap: number,
  start: () => V,
): Promise<VisitedHistory<V>> {
  const watched = await watchedHistory(call.appId, webhookId);
  let why = "why" in watched ? watched.why : "";
  if (!("why" in watched)) {
    const stored = await visitStore(watched, start()).catch(() => ({ why: STORE_DOWN }));
    if (!("why" in stored)) return stored;
    why = stored.why;
  }
  const visitor = start();
  const reader = await openHistory(call, webhookId, { cap, retain: true });
  let read = 0;
  let done = false;
  try {
    while (!done) {
      const batch = await reader.next();
      if (!batch) break;
      for (const log of batch) {
        read++;
        done = !visitor.add(log);
        if (done) break;
      }
    }
  } finally {
    reader.close();
  }
  const source: HistorySource = { from: "scan", why };
  if (done) return { visitor, stop: { reason: "done" }, source };
  const stop = reader.stop;
  if (stop.reason === "failed") throw stop.error;
  if (stop.reason === "complete") return { visitor, stop, source };
  return { visitor, stop: { reason: "cap", read, total: reader.total }, source };
}

/** The visit over the store's copy, or why the scan must make it (the copy ends short, or cut a body shown). */
async function visitStore<V extends LogVisitor>(
  watched: WatchedHistory,
  visitor: V,
): Promise<VisitedHistory<V> | { why: string }> {
  let done = false;
  for await (const batch of watched.stream(EMPTY_QUESTION)) {
    done = batch.some((log) => !visitor.add(log));
    if (done) break;
  }
  if (!done) {
    const why = await watched.cannotAnswer(EMPTY_QUESTION, "rows");
    if (why) return { why };
  }
  const shown = visitor.shown();
  if (!shown) return { why: "the watch's copy does not hold this delivery yet." };
  if (shown.some((log) => (log as Partial<StoredLog>).responseBodyTruncated))
    return {
      why: "a response it shows is longer than the watch keeps (WATCH_BODY_CAP_BYTES), and it is shown whole.",
    };
  return {
    visitor,
    stop: { reason: done ? "done" : "complete" },
    source: { from: "watch", asOf: watched.asOf },
  };
}
