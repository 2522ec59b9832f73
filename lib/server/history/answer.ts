import "server-only";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { HistorySource } from "@/lib/domain/history/answer-source";
import { matchesTarget, type FindTarget } from "@/lib/domain/history/find-input";
import { EMPTY_QUESTION, type HistoryQuestion } from "@/lib/domain/history/question";
import { HEALTH_WINDOWS, type HealthWindow } from "@/lib/domain/history/health";
import type { ScanPartial, ScanProgressLine, ScanResultLine } from "@/lib/domain/scan-answer";
import type { StoredLog } from "@/lib/domain/watch/stored-log";
import { AppError } from "@/lib/server/app-error";
import type { WebhookId } from "@/lib/server/hub/path-params";
import { unavailable, withStore } from "@/lib/server/store/context";
import { issueScope } from "@/lib/server/watch/issue-logs";
import { copyFor, stored, type Copy, type HistoryCall, type Reach } from "@/lib/server/history/copy";
import * as questions from "@/lib/server/history/questions";

export type { HistoryCall } from "@/lib/server/history/copy";

/**
 * Every history question of the console, answered the one way: the copy is brought as far as the
 * question reaches (copy.ts), SQL answers it (questions.ts), and the answer says what the copy covers.
 */

/** The part of the copy that answers: from where it holds every log. */
function scopeOf(copy: Copy): questions.Scope {
  return { webhookId: copy.webhookId, from: copy.completeFrom, complete: copy.complete };
}

async function sourceOf(copy: Copy, cutBodies = 0): Promise<HistorySource> {
  return {
    asOf: new Date(copy.asOf).toISOString(),
    watched: copy.watched,
    logs: await stored(questions.countScope(copy.ctx.db, scopeOf(copy), null)),
    complete: copy.complete,
    cutBodies,
  };
}

/** The question narrowed to one failure issue's deliveries, from its first failure on (unchanged without `issueId`). */
export async function narrowToIssue(
  appId: string,
  webhookId: WebhookId,
  question: HistoryQuestion,
  issueId: string | undefined,
): Promise<HistoryQuestion> {
  if (!issueId) return question;
  const scope = await withStore((ctx) => issueScope(ctx, appId, webhookId, issueId));
  const since = Math.max(question.since ?? scope.firstFailureAt, scope.firstFailureAt);
  return { ...question, since, issue: scope.filter };
}

export interface AnswerOptions {
  cap: number;
  /** Matched rows to skip and to return (paging over the matches). */
  offset: number;
  limit: number;
  /** Reads on past the question's start (within the cap) until the failing streak is known whole. */
  followStreak?: boolean;
  /** Answer from the copy as it is, with no hub call, when it reaches the question (CopyOptions.asIs). */
  asIs?: boolean;
}

/**
 * Starts answering a question: the hub's newest page is read now, so a refused key is thrown before
 * any answer began; `run` copies what else it needs, with progress, and answers.
 */
export async function beginAnswer(
  call: HistoryCall,
  webhookId: WebhookId,
  question: HistoryQuestion,
  options: AnswerOptions,
  now = Date.now(),
): Promise<{ run(onProgress?: (progress: ScanProgressLine) => void): Promise<ScanResultLine> }> {
  const reach: Reach = { since: question.since, cap: options.cap };
  const asIs = options.asIs ?? false;
  await copyFor(call, webhookId, { since: now, cap: options.cap }, { asIs });
  return {
    async run(onProgress) {
      let copy = await copyFor(call, webhookId, reach, { onProgress, asIs });
      if (options.followStreak && !asIs) {
        const streak = await stored(questions.streak(copy.ctx.db, scopeOf(copy)));
        if (streak?.atLeast && !copy.partial)
          copy = await copyFor(
            call,
            webhookId,
            { since: null, cap: options.cap },
            { onProgress, until: (log) => log.status === "Success" },
          );
      }
      return resultOf(copy, question, options, now);
    },
  };
}

/** Starts answering Delivery health of the most recent `window`, with the 5 newest attempts as its rows. */
export function beginHealth(
  call: HistoryCall,
  webhookId: WebhookId,
  window: HealthWindow,
  cap: number,
  now = Date.now(),
  asIs = false,
) {
  const question = { ...EMPTY_QUESTION, since: now - HEALTH_WINDOWS[window] };
  return beginAnswer(call, webhookId, question, { cap, offset: 0, limit: 5, followStreak: true, asIs }, now);
}

async function resultOf(
  copy: Copy,
  question: HistoryQuestion,
  options: AnswerOptions,
  now: number,
): Promise<ScanResultLine> {
  const scope = scopeOf(copy);
  const db = copy.ctx.db;
  const [page, summary, read, cut] = await stored(
    Promise.all([
      questions.queryLogs(db, scope, question, { offset: options.offset, limit: options.limit }),
      questions.health(db, scope, question, now),
      questions.countScope(db, scope, question.since),
      question.contains ? questions.cutBodies(db, scope, question) : Promise.resolve(0),
    ]),
  );
  return {
    type: "result",
    read,
    total: copy.total,
    cap: options.cap,
    matches: page.total,
    offset: options.offset,
    limit: options.limit,
    rows: page.rows,
    summary,
    partial: copy.partial,
    arrivedMeanwhile: copy.arrivedMeanwhile,
    source: await sourceOf(copy, cut),
  };
}

export type FindAnswer =
  | { found: true; log: StoredLog; position: number; read: number; total: number; source: HistorySource }
  | { found: false; read: number; total: number; partial: ScanPartial; source: HistorySource };

/** The newest delivery answering the target: from the copy, read further back (within `cap`) until found. */
export async function findDelivery(
  call: HistoryCall,
  webhookId: WebhookId,
  target: FindTarget,
  cap: number,
): Promise<FindAnswer> {
  const askedAt = Date.now();
  let copy = await copyFor(call, webhookId, { since: askedAt, cap });
  let found = await stored(questions.findLog(copy.ctx.db, scopeOf(copy), target));
  if (!found && copy.asOf < askedAt) {
    // It may be newer than the copy: a person found it in the live table.
    copy = await copyFor(call, webhookId, { since: askedAt, cap }, { refresh: true });
    found = await stored(questions.findLog(copy.ctx.db, scopeOf(copy), target));
  }
  if (!found && !copy.complete) {
    copy = await copyFor(
      call,
      webhookId,
      { since: null, cap },
      { until: (log) => matchesTarget(target, log) },
    );
    found = await stored(questions.findLog(copy.ctx.db, scopeOf(copy), target));
  }
  const source = await sourceOf(copy);
  if (found) {
    return {
      found: true,
      log: found.log,
      position: found.index,
      read: found.index + 1,
      total: copy.total,
      source,
    };
  }
  return { found: false, read: source.logs, total: copy.total, partial: copy.partial, source };
}

export interface MatchStream {
  /** The next matched logs (newest first); null at the end. */
  next(): Promise<WebhookLog[] | null>;
  close(): void;
  source: HistorySource;
}

/** The matched logs one batch at a time, for an export, once the copy is made (a refusal is an error answer). */
export async function openExport(
  call: HistoryCall,
  webhookId: WebhookId,
  question: HistoryQuestion,
  cap: number,
): Promise<MatchStream> {
  const copy = await copyFor(call, webhookId, { since: question.since, cap });
  const scope = scopeOf(copy);
  const cut = await stored(questions.cutBodies(copy.ctx.db, scope, question));
  const batches = questions.streamLogs(copy.ctx.db, scope, question)[Symbol.asyncIterator]();
  return {
    source: await sourceOf(copy, cut),
    async next() {
      const batch = await stored(batches.next());
      return batch.done ? null : batch.value;
    },
    close() {
      void batches.return?.();
    },
  };
}

/** Hands the copy's logs to the visitor, newest first; true once it needs no more. */
async function visitCopy(copy: Copy, visitor: LogVisitor): Promise<boolean> {
  try {
    for await (const batch of questions.streamLogs(copy.ctx.db, scopeOf(copy), EMPTY_QUESTION)) {
      if (batch.some((log) => !visitor.add(log))) return true;
    }
    return false;
  } catch (error) {
    throw unavailable(error);
  }
}

/** Takes a webhook's logs one at a time, newest first; false once nothing older can change its answer. */
export interface LogVisitor {
  add(log: WebhookLog): boolean;
  /** The logs its answer shows, or null while it has not met one it needs. */
  shown(): WebhookLog[] | null;
}

export interface VisitedHistory<V> {
  visitor: V;
  /** Why the visitor got no further: it had what it needed, it saw the whole history, or the cap. */
  stop: { reason: "done" } | { reason: "complete" } | { reason: "cap"; read: number; total: number };
  source: HistorySource;
}

/**
 * Hands a webhook's logs, newest first, to a visitor until it has what it needs: the copy's, then
 * older ones as they are copied (within `cap`). A hub failure midway is thrown, not answered around.
 */
export async function visitHistory<V extends LogVisitor>(
  call: HistoryCall,
  webhookId: WebhookId,
  cap: number,
  start: () => V,
): Promise<VisitedHistory<V>> {
  const askedAt = Date.now();
  let copy = await copyFor(call, webhookId, { since: askedAt, cap });
  let visitor = start();
  let done = await visitCopy(copy, visitor);
  if (visitor.shown() === null && copy.asOf < askedAt) {
    // The delivery it looks for may be newer than the copy: a person saw it in the live table.
    copy = await copyFor(call, webhookId, { since: askedAt, cap }, { refresh: true });
    visitor = start();
    done = await visitCopy(copy, visitor);
  }
  if (!done && !copy.complete) {
    copy = await copyFor(
      call,
      webhookId,
      { since: null, cap },
      { until: (log) => (done = !visitor.add(log)) },
    );
    if (copy.partial?.reason === "failed") throw new AppError(copy.partial.code, copy.partial.message);
  }
  const cut = (visitor.shown() ?? []).filter((log) => (log as Partial<StoredLog>).responseBodyTruncated);
  const source = await sourceOf(copy, cut.length);
  if (done) return { visitor, stop: { reason: "done" }, source };
  if (copy.complete) return { visitor, stop: { reason: "complete" }, source };
  return { visitor, stop: { reason: "cap", read: source.logs, total: copy.total }, source };
}
