import "server-only";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { HealthBuilder, StreakBuilder } from "@/lib/domain/history/health";
import { matchesTarget, type FindTarget } from "@/lib/domain/history/find-input";
import { isPastWindow, matchesQuestion, type HistoryQuestion } from "@/lib/domain/history/question";
import type { ScanPartial, ScanProgressLine, ScanResultLine } from "@/lib/domain/scan-answer";
import { listWebhookLogs } from "@/lib/server/hub/client";
import type { WebhookId } from "@/lib/server/hub/path-params";
import { apiKeyHash } from "@/lib/server/session/key-hash";
import { serverConfig } from "@/lib/server/config";
import { cancelledByClient } from "@/lib/server/hub/shared-reads";
import { PAGE_SIZE } from "@/lib/server/history/placement";
import { belongsToIssue } from "@/lib/server/watch/issue-logs";
import type { HistoryReader } from "@/lib/server/history/reader";
import { SharedHistory, type PageReader } from "@/lib/server/history/shared-history";

/**
 * Answers "which logs of webhook W match this question" over its whole history (up to a cap),
 * on histories shared per (API key hash, webhook): identical questions asked at once share one
 * set of upstream calls, and a finished history is kept HISTORY_CACHE_SECONDS so the next
 * question costs one call (the newest page, which also re-checks the key). Nothing is shared
 * between keys, and the key itself is never stored: only its keyed hash names a history.
 */

export interface ScanCall {
  apiKey: string;
  /** The request's signal: when it aborts, this reader leaves; the last one to leave stops the calls. */
  signal: AbortSignal;
}

const histories = new Map<string, SharedHistory>();
const refreshes = new WeakMap<SharedHistory, SharedRefresh>();

/**
 * The refresh of an idle history, shared by every request that asks meanwhile. It runs on its
 * own signal, aborted only when the last of them has left: one request cancelled is no error for
 * the others.
 */
class SharedRefresh {
  private waiters = 0;
  private readonly controller = new AbortController();
  readonly done: Promise<boolean>;

  constructor(history: SharedHistory, pages: PageReader) {
    this.done = history.refresh(pages, this.controller.signal);
    // Each waiter gets the rejection; with none left, the cancelled refresh's is nobody's.
    this.done.catch(() => {});
  }

  /** Every request that waited for it left: a new request starts another. */
  get cancelled(): boolean {
    return this.controller.signal.aborted;
  }

  async wait(signal: AbortSignal): Promise<boolean> {
    this.waiters++;
    try {
      return await new Promise<boolean>((resolve, reject) => {
        const onAbort = () => reject(cancelledByClient(signal.reason));
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        this.done.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
      });
    } finally {
      if (--this.waiters === 0 && signal.aborted) this.controller.abort();
    }
  }
}

function pagesOf(call: ScanCall, webhookId: WebhookId): PageReader {
  return (offset, signal) =>
    // The history keeps its logs itself: the pages are shared only while in flight, never kept
    // for polls (a long export would otherwise hold them twice).
    listWebhookLogs({ apiKey: call.apiKey, signal, keep: false }, webhookId, { offset, limit: PAGE_SIZE });
}

/** Drops expired idle histories, then the least recently used idle ones while over the memory budget. */
function sweep(): void {
  const { cacheSeconds, cacheBytes } = serverConfig().history;
  const now = Date.now();
  let bytes = 0;
  for (const [key, history] of histories) {
    if (!history.joinable || (history.idle && now - history.lastUsed > cacheSeconds * 1000))
      histories.delete(key);
    else bytes += history.size;
  }
  for (const [key, history] of histories) {
    if (bytes <= cacheBytes) break;
    if (!history.idle) continue;
    histories.delete(key);
    bytes -= history.size;
  }
}

/**
 * A reader of the newest `cap` logs of a webhook. `retain: false` (exports) does not keep what
 * it read beyond what its readers have yet to consume. Throws the hub's error when even the
 * first page cannot be read (401, 404, 429, …).
 */
export async function openHistory(
  call: ScanCall,
  webhookId: WebhookId,
  options: { cap: number; retain: boolean },
): Promise<HistoryReader> {
  const config = serverConfig().history;
  const key = `${apiKeyHash(call.apiKey)}:${webhookId}`;
  const pages = pagesOf(call, webhookId);
  sweep();
  let history = histories.get(key);
  if (history?.idle) {
    const idle = history;
    let refresh = refreshes.get(idle);
    if (!refresh || refresh.cancelled) {
      const started = new SharedRefresh(idle, pages);
      refreshes.set(idle, started);
      void started.done
        .finally(() => {
          if (refreshes.get(idle) === started) refreshes.delete(idle);
        })
        .catch(() => {});
      refresh = started;
    }
    let current = false;
    try {
      current = await refresh.wait(call.signal);
    } catch (error) {
      if (call.signal.aborted) throw error;
      if (histories.get(key) === history) histories.delete(key);
      throw error;
    }
    if (!current && histories.get(key) === history) histories.delete(key);
    history = histories.get(key);
  }
  if (!history) {
    const created: SharedHistory = new SharedHistory({
      concurrency: config.concurrency,
      retain: options.retain,
      maxBytes: config.cacheBytes / 2,
      onStopRetaining: () => {
        if (histories.get(key) === created) histories.delete(key);
      },
    });
    history = created;
  }
  if (history.joinable) {
    histories.delete(key);
    histories.set(key, history);
  }
  return history.addReader(options.cap, pages, call.signal);
}

/** Why a reader stopped, said for a person. */
function partialOf(reader: HistoryReader, cap: number): ScanPartial {
  const stop = reader.stop;
  if (stop.reason === "complete") return null;
  if (stop.reason === "cap") {
    return {
      reason: "cap",
      message:
        `Only the newest ${cap.toLocaleString("en-US")} of ${reader.total.toLocaleString("en-US")} deliveries were read ` +
        "(the scan's cap). Scan further to include older ones.",
    };
  }
  const retry = stop.error.code === "rate_limited" ? " The hub kept limiting requests." : "";
  return {
    reason: "failed",
    code: stop.error.code,
    message: `The scan stopped after ${reader.read.toLocaleString("en-US")} deliveries: ${stop.error.message}${retry}`,
  };
}

/** A scan's result line; the route adds which part of the console answered (`source`). */
export type ScanResult = Omit<ScanResultLine, "source">;

export interface ScanOptions {
  cap: number;
  /** Matched rows to skip and to return (paging over the matches). */
  offset: number;
  limit: number;
  /**
   * Reads on past the question's time range (within the cap) until the webhook's current failing
   * streak is known: where it began is a fact about the webhook, not about the range.
   */
  followStreak?: boolean;
  /** Called after each batch read. */
  onProgress?: (progress: ScanProgressLine) => void;
}

/**
 * Starts a scan: reads the first page now (so a refused key or an unknown webhook is thrown here,
 * before any answer began), and returns `run`, which reads on and reports progress.
 */
export async function beginScan(
  call: ScanCall,
  webhookId: WebhookId,
  question: HistoryQuestion,
  options: Omit<ScanOptions, "onProgress">,
  now = Date.now(),
): Promise<{ run(onProgress?: ScanOptions["onProgress"]): Promise<ScanResult> }> {
  const reader = await openHistory(call, webhookId, { cap: options.cap, retain: true });
  return { run: (onProgress) => runScan(reader, question, { ...options, onProgress }, now) };
}

/** The matches of a question: a page of them, how many, and the health of all of them. */
export async function scanHistory(
  call: ScanCall,
  webhookId: WebhookId,
  question: HistoryQuestion,
  options: ScanOptions,
  now = Date.now(),
): Promise<ScanResult> {
  return (await beginScan(call, webhookId, question, options, now)).run(options.onProgress);
}

/** Whether a log answers the question: its fields, and for an issue, its cause (belongsToIssue). */
function matcherOf(question: HistoryQuestion): (log: WebhookLog) => boolean {
  const { issue } = question;
  const bodyCapBytes = serverConfig().watch.bodyCapBytes;
  return (log) =>
    matchesQuestion(question, log) && (issue === null || belongsToIssue(issue, log, bodyCapBytes));
}

async function runScan(
  reader: HistoryReader,
  question: HistoryQuestion,
  options: ScanOptions,
  now: number,
): Promise<ScanResult> {
  const answers = matcherOf(question);
  const health = new HealthBuilder();
  const streak = new StreakBuilder();
  const rows: WebhookLog[] = [];
  let read = 0;
  let matches = 0;
  let pastWindow = false;
  /** The reader handed out all it could (not stopped early by this loop). */
  let exhausted = false;
  try {
    outer: for (;;) {
      const batch = await reader.next();
      if (!batch) {
        exhausted = true;
        break;
      }
      for (const log of batch) {
        pastWindow ||= isPastWindow(question, log);
        if (pastWindow && (!options.followStreak || streak.settled)) break outer;
        streak.add(log);
        if (pastWindow) continue;
        read++;
        if (!answers(log)) continue;
        if (matches >= options.offset && rows.length < options.limit) rows.push(log);
        matches++;
        health.add(log);
      }
      options.onProgress?.({ type: "progress", read, total: reader.total, cap: options.cap, matches });
    }
  } finally {
    reader.close();
  }
  const partial = pastWindow ? null : partialOf(reader, options.cap);
  return {
    type: "result",
    read,
    total: reader.total,
    cap: options.cap,
    matches,
    offset: options.offset,
    limit: options.limit,
    rows,
    summary: health.summary(
      { from: question.since, to: question.until ?? now },
      streak.result(exhausted && reader.stop.reason === "complete"),
    ),
    partial,
    arrivedMeanwhile: reader.arrivedMeanwhile,
  };
}

export type FindResult =
  | { found: true; log: WebhookLog; position: number; read: number; total: number }
  | { found: false; read: number; total: number; partial: ScanPartial };

/** The newest log answering the target; stops reading the moment it is found. */
export async function findInHistory(
  call: ScanCall,
  webhookId: WebhookId,
  target: FindTarget,
  cap: number,
): Promise<FindResult> {
  const reader = await openHistory(call, webhookId, { cap, retain: true });
  let read = 0;
  try {
    for (;;) {
      const batch = await reader.next();
      if (!batch) break;
      for (const log of batch) {
        if (matchesTarget(target, log))
          return { found: true, log, position: read, read: read + 1, total: reader.total };
        read++;
      }
    }
  } finally {
    reader.close();
  }
  return { found: false, read, total: reader.total, partial: partialOf(reader, cap) };
}

export interface MatchStream {
  /** The next matched logs (newest first); null at the end. Throws when the scan failed midway. */
  next(): Promise<WebhookLog[] | null>;
  close(): void;
}

/**
 * The matched logs one batch at a time, for an export: nothing is kept beyond the batch being
 * written (unless a shared history already keeps it). Opens (and so reads the first page) before
 * returning, so a refused key or an unknown webhook is an ordinary error answer.
 */
export async function streamMatches(
  call: ScanCall,
  webhookId: WebhookId,
  question: HistoryQuestion,
  cap: number,
): Promise<MatchStream> {
  const reader = await openHistory(call, webhookId, { cap, retain: false });
  const answers = matcherOf(question);
  let done = false;
  return {
    async next() {
      while (!done) {
        const batch = await reader.next();
        if (!batch) {
          done = true;
          reader.close();
          const partial = partialOf(reader, cap);
          if (partial?.reason === "failed" && !call.signal.aborted) throw new Error(partial.message);
          return null;
        }
        const matched: WebhookLog[] = [];
        for (const log of batch) {
          if (isPastWindow(question, log)) {
            done = true;
            break;
          }
          if (answers(log)) matched.push(log);
        }
        if (done) reader.close();
        if (matched.length > 0) return matched;
      }
      return null;
    },
    close() {
      done = true;
      reader.close();
    },
  };
}

/** For tests: forget every history. */
export function resetHistoryForTests(): void {
  histories.clear();
}
