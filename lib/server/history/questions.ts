import "server-only";
import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from "kysely";
import type { FindTarget } from "@/lib/domain/history/find-input";
import {
  bucketSizeFor,
  type FailingStreak,
  type HealthBucket,
  type HealthSummary,
} from "@/lib/domain/history/health";
import { EMPTY_QUESTION, type HistoryQuestion } from "@/lib/domain/history/question";
import type { StoredLog, TimelineEvent, TimelineRange } from "@/lib/domain/watch/stored-log";
import { toIso } from "@/lib/server/store/context";
import type { StoreDatabase, StoreDb } from "@/lib/server/store/schema";

/**
 * The history questions in SQL over the copy of a webhook's logs, newest first as the hub lists
 * them (creation time, then id). Each is asked of a scope, the part of the copy without a gap.
 */

type LogRow = StoreDatabase["watch_logs"];
type Logs = ExpressionBuilder<StoreDatabase, "watch_logs">;

/** The contiguous part of one webhook's copy. */
export interface Scope {
  webhookId: string;
  /** Creation time from which every log is copied; null: every log the copy holds. */
  from: number | null;
  /** The copy reaches the webhook's first delivery. */
  complete: boolean;
}

const STREAM_BATCH = 500;

async function count(query: SelectQueryBuilder<StoreDatabase, "watch_logs", object>): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function summaryOf(db: StoreDb, webhookId: string): Promise<StoredLog["webhook"]> {
  const row = await db
    .selectFrom("watch_state")
    .leftJoin("watches", "watches.webhook_id", "watch_state.webhook_id")
    .leftJoin("log_copies", "log_copies.webhook_id", "watch_state.webhook_id")
    .select(["watches.endpoint", "watches.event_type", "log_copies.endpoint as copyEndpoint"])
    .where("watch_state.webhook_id", "=", webhookId)
    .executeTakeFirst();
  return {
    id: webhookId,
    endpoint: row?.endpoint ?? row?.copyEndpoint ?? "",
    eventType: row?.event_type ?? "Message",
  };
}

export function logOf(row: LogRow, webhook: StoredLog["webhook"]): StoredLog {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    statusCode: row.status_code,
    responseBody: row.body,
    status: row.status as StoredLog["status"],
    sendAt: toIso(row.send_at),
    createdDate: toIso(row.created_at),
    messageId: row.message_id,
    webhook,
    responseBodySize: row.body_size,
    responseBodySha256: row.body_sha256,
    responseBodyTruncated: Buffer.byteLength(row.body, "utf8") < row.body_size,
  };
}

/** `%` and `_` typed by a person match themselves. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The body holds `text` (lower-cased already), in any case. */
function bodyContains(text: string) {
  return sql<SqlBool>`lower(body) like ${likePattern(text)} escape '\\'`;
}

/** The scope's logs: one webhook's, created from the scope's start on. */
function inScope(scope: Pick<Scope, "webhookId" | "from">) {
  return (eb: Logs) =>
    eb.and([
      eb("webhook_id", "=", scope.webhookId),
      ...(scope.from === null ? [] : [eb("created_at", ">=", scope.from)]),
    ]);
}

function matching(scope: Scope, question: HistoryQuestion) {
  return (eb: Logs) => {
    const terms: Expression<SqlBool>[] = [inScope(scope)(eb)];
    if (question.status) terms.push(eb("status", "=", question.status));
    const code = question.code;
    if (code?.kind === "exact") terms.push(eb("status_code", "=", code.code));
    if (code?.kind === "class") {
      terms.push(
        eb("status_code", ">=", code.hundreds * 100),
        eb("status_code", "<", code.hundreds * 100 + 100),
      );
    }
    if (question.since !== null) terms.push(eb("send_at", ">=", question.since));
    if (question.until !== null) terms.push(eb("send_at", "<=", question.until));
    if (question.contains) terms.push(bodyContains(question.contains));
    // Only failures keep a signature (storedSignature), so these two select the issue's failures.
    if (question.issue) {
      terms.push(
        eb("status_code", "=", question.issue.statusCode),
        eb("signature", "=", question.issue.signature),
      );
    }
    return eb.and(terms);
  };
}

/**
 * Logs answering the question whose body is cut at WATCH_BODY_CAP_BYTES where that matters: with
 * `contains`, those whose kept part lacks the text (it may lie past the cut); else all (an export writes them cut).
 */
export function cutBodies(db: StoreDb, scope: Scope, question: HistoryQuestion): Promise<number> {
  return count(
    db
      .selectFrom("watch_logs")
      .where(matching(scope, { ...question, contains: null }))
      .where(sql<SqlBool>`body_size > octet_length(body)`)
      .$if(question.contains !== null, (qb) => qb.where((eb) => eb.not(bodyContains(question.contains!)))),
  );
}

/** Logs of the scope created at or after `since` (all when null): what a question over them reads. */
export function countScope(
  db: StoreDb,
  scope: Pick<Scope, "webhookId" | "from">,
  since: number | null,
): Promise<number> {
  return count(
    db
      .selectFrom("watch_logs")
      .where(inScope(scope))
      .$if(since !== null, (qb) => qb.where("created_at", ">=", since!)),
  );
}

/** In listing order (newest first, as the hub lists), the logs older (`<`) or newer (`>`) than `row`. */
function beyond(side: "<" | ">", row: { created_at: number; id: string }) {
  return (eb: Logs) =>
    eb.or([
      eb("created_at", side, row.created_at),
      eb.and([eb("created_at", "=", row.created_at), eb("id", side, row.id)]),
    ]);
}

/** Counts by status code (rows of one code summed), most frequent first. */
function byCount(rows: Array<{ status_code: number; n: number | string | bigint }>) {
  const counts = new Map<number, number>();
  for (const row of rows) {
    const code = Number(row.status_code);
    counts.set(code, (counts.get(code) ?? 0) + Number(row.n));
  }
  return [...counts]
    .map(([statusCode, count]) => ({ statusCode, count }))
    .sort((a, b) => b.count - a.count || a.statusCode - b.statusCode);
}

/**
 * The logs matching a question in listing order. A log is sent before it is created, so those
 * sent since `since` were all created since then: saying so lets the listing index both find and
 * order them, instead of sorting every log of the window.
 */
function listed(db: StoreDb, scope: Scope, question: HistoryQuestion) {
  return db
    .selectFrom("watch_logs")
    .where(matching(scope, question))
    .$if(question.since !== null, (qb) => qb.where("created_at", ">=", question.since!))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc");
}

/** Delivery health of the logs matching a question: buckets over [since, until or now], and the streak. */
export async function health(
  db: StoreDb,
  scope: Scope,
  question: HistoryQuestion,
  now: number,
): Promise<HealthSummary> {
  const where = matching(scope, question);
  const to = question.until ?? now;
  const oldest =
    question.since ??
    (
      await db
        .selectFrom("watch_logs")
        .select((eb) => eb.fn.min("send_at").as("first"))
        .where(where)
        .executeTakeFirst()
    )?.first ??
    null;
  const from = oldest === null ? null : Number(oldest);
  const bucketMs = from === null || to < from ? 0 : bucketSizeFor(Math.max(to - from, 60_000));
  const first = from === null || bucketMs === 0 ? 0 : Math.floor(from / bucketMs) * bucketMs;
  // Literals, not parameters: PostgreSQL matches the GROUP BY to the select only when the text is
  // the same, and SQLite divides integers only when both sides are integers (it binds numbers as reals).
  const slot = sql<number>`(send_at - ${sql.lit(first)}) / ${sql.lit(Math.max(bucketMs, 1))}`;
  // One pass over the window: the buckets and the failures by code are both sums of these counts.
  const [counts, lastSuccess, lastFailure, failingStreak] = await Promise.all([
    db
      .selectFrom("watch_logs")
      .select([slot.as("slot"), "status", "status_code", (eb) => eb.fn.countAll<number>().as("n")])
      .where(where)
      .groupBy([slot, "status", "status_code"])
      .execute(),
    newest(db, scope, question, "Success"),
    newest(db, scope, question, "Failed"),
    streak(db, scope),
  ]);
  const count = bucketMs === 0 ? 0 : Math.floor((to - first) / bucketMs) + 1;
  const buckets: HealthBucket[] = Array.from({ length: count }, (_, i) => ({
    start: toIso(first + i * bucketMs),
    success: 0,
    failed: 0,
  }));
  const totals = { success: 0, failed: 0 };
  for (const row of counts) {
    const outcome = row.status === "Success" ? "success" : "failed";
    totals[outcome] += Number(row.n);
    // A log sent after `to` (a clock ahead of ours) has no bucket: it counts in the totals only.
    const bucket = buckets[Number(row.slot)];
    if (bucket) bucket[outcome] += Number(row.n);
  }
  const { success, failed } = totals;
  const attempts = success + failed;
  return {
    from: from === null ? null : toIso(from),
    to: toIso(to),
    bucketMs,
    buckets,
    attempts,
    success,
    failed,
    successRate: attempts === 0 ? null : Math.round((success / attempts) * 1000) / 10,
    lastSuccess: lastSuccess ? { at: toIso(lastSuccess.send_at), logId: lastSuccess.id } : null,
    lastFailure: lastFailure
      ? { at: toIso(lastFailure.send_at), logId: lastFailure.id, statusCode: lastFailure.status_code }
      : null,
    failingStreak,
    failuresByCode: byCount(counts.filter((row) => row.status !== "Success")),
  };
}

/**
 * The failures in a row since the newest success, when the newest delivery failed; `atLeast` when
 * the scope holds no success and not the whole history. The one place the streak is computed.
 */
export async function streak(db: StoreDb, scope: Scope): Promise<FailingStreak | null> {
  const success = await newest(db, scope, EMPTY_QUESTION, "Success");
  const failures = (eb: Logs) =>
    eb.and([
      inScope(scope)(eb),
      eb("status", "!=", "Success"),
      ...(success ? [beyond(">", success)(eb)] : []),
    ]);
  const [oldest, codes] = await Promise.all([
    db
      .selectFrom("watch_logs")
      .select("send_at")
      .where(failures)
      .orderBy("created_at")
      .orderBy("id")
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom("watch_logs")
      .select(["status_code", (eb) => eb.fn.countAll<number>().as("n")])
      .where(failures)
      .groupBy("status_code")
      .execute(),
  ]);
  if (!oldest) return null;
  const streakCodes = byCount(codes);
  return {
    since: toIso(oldest.send_at),
    length: streakCodes.reduce((sum, code) => sum + code.count, 0),
    atLeast: !success && !scope.complete,
    codes: streakCodes,
  };
}

/** The newest success, or the newest failure, among the logs answering the question. */
export function newest(db: StoreDb, scope: Scope, question: HistoryQuestion, status: "Success" | "Failed") {
  return listed(db, scope, question)
    .select(["id", "send_at", "created_at", "status_code"])
    .where("status", status === "Success" ? "=" : "!=", "Success")
    .limit(1)
    .executeTakeFirst();
}

/** A page of the logs matching a question, newest first, and how many match in all. */
export async function queryLogs(
  db: StoreDb,
  scope: Scope,
  question: HistoryQuestion,
  page: { offset: number; limit: number },
): Promise<{ rows: StoredLog[]; total: number }> {
  const [webhook, rows, total] = await Promise.all([
    summaryOf(db, scope.webhookId),
    listed(db, scope, question).selectAll().limit(page.limit).offset(page.offset).execute(),
    count(db.selectFrom("watch_logs").where(matching(scope, question))),
  ]);
  return { rows: rows.map((row) => logOf(row, webhook)), total };
}

/** Every log matching a question, newest first, in batches by keyset, so a long export never re-reads. */
export async function* streamLogs(
  db: StoreDb,
  scope: Scope,
  question: HistoryQuestion,
): AsyncIterable<StoredLog[]> {
  const webhook = await summaryOf(db, scope.webhookId);
  let after: { created_at: number; id: string } | null = null;
  for (;;) {
    const cursor: typeof after = after;
    const rows: LogRow[] = await listed(db, scope, question)
      .selectAll()
      .$if(cursor !== null, (qb) => qb.where(beyond("<", cursor!)))
      .limit(STREAM_BATCH)
      .execute();
    if (rows.length === 0) return;
    yield rows.map((row) => logOf(row, webhook));
    if (rows.length < STREAM_BATCH) return;
    after = rows[rows.length - 1]!;
  }
}

/** A log by its id or message id (the newest), and its place newest first among the logs of `status` (null: all). */
export async function findLog(
  db: StoreDb,
  scope: Scope,
  target: FindTarget,
  status: HistoryQuestion["status"] = null,
): Promise<{ log: StoredLog; index: number } | null> {
  const id = target.id.toLowerCase();
  const row = await db
    .selectFrom("watch_logs")
    .selectAll()
    .where(inScope(scope))
    .where((eb) =>
      target.kind === "log" ? eb("id", "=", id) : eb.or([eb("id", "=", id), eb("message_id", "=", id)]),
    )
    .$if(status !== null, (qb) => qb.where("status", "=", status!))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const [webhook, index] = await Promise.all([
    summaryOf(db, scope.webhookId),
    count(
      db
        .selectFrom("watch_logs")
        .where(inScope(scope))
        .$if(status !== null, (qb) => qb.where("status", "=", status!))
        .where(beyond(">", row)),
    ),
  ]);
  return { log: logOf(row, webhook), index };
}

/** Changes of `active` and jumps of `numberOfErrors` a watch saw, newest first (within `range`). */
export async function timeline(
  db: StoreDb,
  webhookId: string,
  { from = null, to = null, limit = 100 }: TimelineRange = {},
): Promise<TimelineEvent[]> {
  const rows = await db
    .selectFrom("watch_timeline")
    .selectAll()
    .where("webhook_id", "=", webhookId)
    .$if(from !== null, (qb) => qb.where("at", ">=", from!))
    .$if(to !== null, (qb) => qb.where("at", "<=", to!))
    .orderBy("at", "desc")
    .orderBy("kind")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    at: toIso(row.at),
    kind: row.kind,
    active: row.active === 1,
    numberOfErrors: row.number_of_errors,
    previous: row.previous === null ? null : row.kind === "active" ? row.previous === 1 : row.previous,
  }));
}
