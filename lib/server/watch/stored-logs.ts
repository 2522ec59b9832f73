import "server-only";
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { FindTarget } from "@/lib/domain/history/find-input";
import { bucketSizeFor, type HealthBucket, type HealthSummary } from "@/lib/domain/history/health";
import type { HistoryQuestion } from "@/lib/domain/history/question";
import type { StoreCoverage, StoredLog, TimelineEvent, TimelineRange } from "@/lib/domain/watch/stored-log";
import { isoOrNull, toIso, type StoreContext } from "@/lib/server/watch/context";
import type { WatchDatabase } from "@/lib/server/watch/schema";

/** Questions over the stored logs of one watched webhook, newest first as the hub lists them. */

type LogRow = WatchDatabase["watch_logs"];
type Logs = ExpressionBuilder<WatchDatabase, "watch_logs">;

const STREAM_BATCH = 500;

async function summaryOf(ctx: StoreContext, webhookId: string) {
  const watch = await ctx.db
    .selectFrom("watches")
    .select(["endpoint", "event_type"])
    .where("webhook_id", "=", webhookId)
    .executeTakeFirst();
  return { id: webhookId, endpoint: watch?.endpoint ?? "", eventType: watch?.event_type ?? "Message" };
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

function matching(webhookId: string, question: HistoryQuestion) {
  return (eb: Logs) => {
    const terms: Expression<SqlBool>[] = [eb("webhook_id", "=", webhookId)];
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
 * Whether a stored log answering the question has its body cut (WATCH_BODY_CAP_BYTES) where that
 * matters: with `contains`, one whose kept part lacks the text, as it may hold it past the cut;
 * without, any (an export would write the cut body).
 */
export async function cutBodyAmong(
  ctx: StoreContext,
  webhookId: string,
  question: HistoryQuestion,
): Promise<boolean> {
  const found = await ctx.db
    .selectFrom("watch_logs")
    .select("id")
    .where(matching(webhookId, { ...question, contains: null }))
    .where(sql<SqlBool>`body_size > octet_length(body)`)
    .$if(question.contains !== null, (qb) => qb.where((eb) => eb.not(bodyContains(question.contains!))))
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

/** Stored logs of the webhook created at or after `since` (all when null): what a scan to `since` reads. */
export async function countStored(
  ctx: StoreContext,
  webhookId: string,
  since: number | null,
): Promise<number> {
  const row = await ctx.db
    .selectFrom("watch_logs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("webhook_id", "=", webhookId)
    .$if(since !== null, (qb) => qb.where("created_at", ">=", since!))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function coverage(ctx: StoreContext, webhookId: string): Promise<StoreCoverage> {
  const state = await ctx.db
    .selectFrom("watch_state")
    .selectAll()
    .where("webhook_id", "=", webhookId)
    .executeTakeFirst();
  return {
    completeFrom: state && !state.history_complete ? isoOrNull(state.complete_from) : null,
    backfilling: !state || state.tail_offset !== null,
    asOf: isoOrNull(state?.polled_at ?? null),
    storedLogs: state?.stored_logs ?? 0,
  };
}

/** Listing order (newest first, as the hub lists): after `row` means older than it. */
function olderThan(row: { created_at: number; id: string }) {
  return (eb: Logs) =>
    eb.or([
      eb("created_at", "<", row.created_at),
      eb.and([eb("created_at", "=", row.created_at), eb("id", "<", row.id)]),
    ]);
}

function newerThan(row: { created_at: number; id: string }) {
  return (eb: Logs) =>
    eb.or([
      eb("created_at", ">", row.created_at),
      eb.and([eb("created_at", "=", row.created_at), eb("id", ">", row.id)]),
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
 * The logs matching a question in listing order. A log is sent before it is created (see
 * isPastWindow), so those sent since `since` were all created since then: saying so lets the
 * listing index both find and order them, instead of sorting every log of the window.
 */
function listed(ctx: StoreContext, webhookId: string, question: HistoryQuestion) {
  return ctx.db
    .selectFrom("watch_logs")
    .where(matching(webhookId, question))
    .$if(question.since !== null, (qb) => qb.where("created_at", ">=", question.since!))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc");
}

/**
 * Delivery health of the logs matching a question, as the scan builds it (HealthBuilder and
 * StreakBuilder in lib/domain/history/health.ts): buckets over [since, until or now], counts,
 * the newest success and failure, failures by code; and the webhook's current failing streak,
 * over every stored log (`followStreak`) or, like a scan that stops at the question's start,
 * over the logs created since then.
 */
export async function health(
  ctx: StoreContext,
  webhookId: string,
  question: HistoryQuestion,
  options: { now: number; followStreak: boolean },
): Promise<HealthSummary> {
  const where = matching(webhookId, question);
  const to = question.until ?? options.now;
  const oldest =
    question.since ??
    (
      await ctx.db
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
    ctx.db
      .selectFrom("watch_logs")
      .select([slot.as("slot"), "status", "status_code", (eb) => eb.fn.countAll<number>().as("n")])
      .where(where)
      .groupBy([slot, "status", "status_code"])
      .execute(),
    newest(ctx, webhookId, question, "Success"),
    newest(ctx, webhookId, question, "Failed"),
    streakOf(ctx, webhookId, options.followStreak ? null : question.since),
  ]);
  const count = bucketMs === 0 ? 0 : Math.floor((to - first) / bucketMs) + 1;
  const buckets: HealthBucket[] = Array.from({ length: count }, (_, i) => ({
    start: toIso(first + i * bucketMs),
    success: 0,
    failed: 0,
  }));
  let success = 0;
  let failed = 0;
  for (const row of counts) {
    const ok = row.status === "Success";
    const n = Number(row.n);
    if (ok) success += n;
    else failed += n;
    const bucket = Number(row.slot) >= 0 ? buckets[Number(row.slot)] : undefined;
    if (!bucket) continue;
    if (ok) bucket.success += n;
    else bucket.failed += n;
  }
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
 * The failures in a row since the newest success among the stored logs created at or after
 * `since` (all of them when null). `atLeast` when no success ends it and the store does not reach
 * back to the webhook's first log (or a scan stopping at `since` would not have read to it).
 */
async function streakOf(
  ctx: StoreContext,
  webhookId: string,
  since: number | null,
): Promise<HealthSummary["failingStreak"]> {
  const scope = (eb: Logs) =>
    eb.and([eb("webhook_id", "=", webhookId), ...(since === null ? [] : [eb("created_at", ">=", since)])]);
  const success = await ctx.db
    .selectFrom("watch_logs")
    .select(["created_at", "id"])
    .where(scope)
    .where("status", "=", "Success")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  const failures = (eb: Logs) =>
    eb.and([scope(eb), eb("status", "!=", "Success"), ...(success ? [newerThan(success)(eb)] : [])]);
  const [oldest, codes, state, before] = await Promise.all([
    ctx.db
      .selectFrom("watch_logs")
      .select("send_at")
      .where(failures)
      .orderBy("created_at")
      .orderBy("id")
      .limit(1)
      .executeTakeFirst(),
    ctx.db
      .selectFrom("watch_logs")
      .select(["status_code", (eb) => eb.fn.countAll<number>().as("n")])
      .where(failures)
      .groupBy("status_code")
      .execute(),
    ctx.db
      .selectFrom("watch_state")
      .select("history_complete")
      .where("webhook_id", "=", webhookId)
      .executeTakeFirst(),
    since === null
      ? undefined
      : ctx.db
          .selectFrom("watch_logs")
          .select("id")
          .where("webhook_id", "=", webhookId)
          .where("created_at", "<", since)
          .limit(1)
          .executeTakeFirst(),
  ]);
  if (!oldest) return null;
  const streakCodes = byCount(codes);
  const readToStart = state?.history_complete === 1 && before === undefined;
  return {
    since: toIso(oldest.send_at),
    length: streakCodes.reduce((sum, code) => sum + code.count, 0),
    atLeast: !success && !readToStart,
    codes: streakCodes,
  };
}

function newest(
  ctx: StoreContext,
  webhookId: string,
  question: HistoryQuestion,
  status: "Success" | "Failed",
) {
  return listed(ctx, webhookId, question)
    .select(["id", "send_at", "status_code"])
    .where("status", status === "Success" ? "=" : "!=", "Success")
    .limit(1)
    .executeTakeFirst();
}

export async function queryLogs(
  ctx: StoreContext,
  webhookId: string,
  question: HistoryQuestion,
  page: { offset: number; limit: number },
): Promise<{ rows: StoredLog[]; total: number }> {
  const where = matching(webhookId, question);
  const [webhook, rows, total] = await Promise.all([
    summaryOf(ctx, webhookId),
    listed(ctx, webhookId, question).selectAll().limit(page.limit).offset(page.offset).execute(),
    ctx.db
      .selectFrom("watch_logs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((row) => logOf(row, webhook)), total: Number(total.n) };
}

/** Batches follow the listing order by keyset (created_at, id), so a long export never re-reads. */
export async function* streamLogs(
  ctx: StoreContext,
  webhookId: string,
  question: HistoryQuestion,
): AsyncIterable<StoredLog[]> {
  const webhook = await summaryOf(ctx, webhookId);
  let after: { created_at: number; id: string } | null = null;
  for (;;) {
    const cursor: typeof after = after;
    const rows: LogRow[] = await listed(ctx, webhookId, question)
      .selectAll()
      .$if(cursor !== null, (qb) => qb.where(olderThan(cursor!)))
      .limit(STREAM_BATCH)
      .execute();
    if (rows.length === 0) return;
    yield rows.map((row) => logOf(row, webhook));
    if (rows.length < STREAM_BATCH) return;
    after = rows[rows.length - 1]!;
  }
}

export async function findLog(
  ctx: StoreContext,
  webhookId: string,
  target: FindTarget,
  status: HistoryQuestion["status"] = null,
): Promise<{ log: StoredLog; index: number } | null> {
  const id = target.id.toLowerCase();
  const row = await ctx.db
    .selectFrom("watch_logs")
    .selectAll()
    .where("webhook_id", "=", webhookId)
    .where((eb) =>
      target.kind === "log" ? eb("id", "=", id) : eb.or([eb("id", "=", id), eb("message_id", "=", id)]),
    )
    .$if(status !== null, (qb) => qb.where("status", "=", status!))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const [webhook, before] = await Promise.all([
    summaryOf(ctx, webhookId),
    ctx.db
      .selectFrom("watch_logs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("webhook_id", "=", webhookId)
      .$if(status !== null, (qb) => qb.where("status", "=", status!))
      .where(newerThan(row))
      .executeTakeFirstOrThrow(),
  ]);
  return { log: logOf(row, webhook), index: Number(before.n) };
}

export async function timeline(
  ctx: StoreContext,
  webhookId: string,
  { from = null, to = null, limit = 100 }: TimelineRange = {},
): Promise<TimelineEvent[]> {
  const rows = await ctx.db
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
