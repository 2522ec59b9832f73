import "server-only";
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { FindTarget } from "@/lib/domain/history/find-input";
import { bucketSizeFor, type HealthBucket, type HealthSummary } from "@/lib/domain/history/health";
import type { HistoryQuestion } from "@/lib/domain/history/question";
import type { StoreCoverage, StoredLog, TimelineEvent } from "@/lib/domain/watch/stored-log";
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

function logOf(row: LogRow, webhook: StoredLog["webhook"]): StoredLog {
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
    if (question.contains)
      terms.push(sql<SqlBool>`lower(body) like ${likePattern(question.contains)} escape '\\'`);
    return eb.and(terms);
  };
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

export async function health(
  ctx: StoreContext,
  webhookId: string,
  window: { from: number; to: number },
): Promise<HealthSummary> {
  const { from, to } = window;
  const bucketMs = bucketSizeFor(Math.max(to - from, 60_000));
  const first = Math.floor(from / bucketMs) * bucketMs;
  const inWindow = (eb: Logs) =>
    eb.and([eb("webhook_id", "=", webhookId), eb("send_at", ">=", from), eb("send_at", "<=", to)]);
  // Literals, not parameters: PostgreSQL matches the GROUP BY to the select only when the text is
  // the same, and SQLite divides integers only when both sides are integers (it binds numbers as reals).
  const slot = sql<number>`(send_at - ${sql.lit(first)}) / ${sql.lit(bucketMs)}`;
  const [counts, codes, lastSuccess, lastFailure, state] = await Promise.all([
    ctx.db
      .selectFrom("watch_logs")
      .select([slot.as("slot"), "status", (eb) => eb.fn.countAll<number>().as("n")])
      .where(inWindow)
      .groupBy([slot, "status"])
      .execute(),
    ctx.db
      .selectFrom("watch_logs")
      .select(["status_code", (eb) => eb.fn.countAll<number>().as("n")])
      .where(inWindow)
      .where("status", "=", "Failed")
      .groupBy("status_code")
      .execute(),
    newest(ctx, inWindow, "Success"),
    newest(ctx, inWindow, "Failed"),
    ctx.db.selectFrom("watch_state").selectAll().where("webhook_id", "=", webhookId).executeTakeFirst(),
  ]);
  const count = Math.floor((to - first) / bucketMs) + 1;
  const buckets: HealthBucket[] = Array.from({ length: count }, (_, i) => ({
    start: toIso(first + i * bucketMs),
    success: 0,
    failed: 0,
  }));
  for (const row of counts) {
    const bucket = buckets[Number(row.slot)];
    if (!bucket) continue;
    if (row.status === "Success") bucket.success += Number(row.n);
    else bucket.failed += Number(row.n);
  }
  const success = buckets.reduce((sum, b) => sum + b.success, 0);
  const failed = buckets.reduce((sum, b) => sum + b.failed, 0);
  const attempts = success + failed;
  let failingStreak: HealthSummary["failingStreak"] = null;
  if (lastFailure && (!lastSuccess || lastFailure.send_at > lastSuccess.send_at)) {
    const streak = await ctx.db
      .selectFrom("watch_logs")
      .select([(eb) => eb.fn.min("send_at").as("since"), (eb) => eb.fn.countAll<number>().as("n")])
      .where(inWindow)
      .where("status", "=", "Failed")
      .where("send_at", ">", lastSuccess?.send_at ?? -1)
      .executeTakeFirstOrThrow();
    const streakCodes = await ctx.db
      .selectFrom("watch_logs")
      .select(["status_code", (eb) => eb.fn.countAll<number>().as("n")])
      .where(inWindow)
      .where("status", "=", "Failed")
      .where("send_at", ">", lastSuccess?.send_at ?? -1)
      .groupBy("status_code")
      .execute();
    const covered = state?.history_complete === 1 || (state?.complete_from ?? Infinity) <= from;
    failingStreak = {
      since: toIso(Number(streak.since)),
      length: Number(streak.n),
      atLeast: !lastSuccess && !covered,
      codes: streakCodes
        .map((row) => ({ statusCode: Number(row.status_code), count: Number(row.n) }))
        .sort((a, b) => b.count - a.count || a.statusCode - b.statusCode),
    };
  }
  return {
    from: toIso(from),
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
    failuresByCode: codes
      .map((row) => ({ statusCode: row.status_code, count: Number(row.n) }))
      .sort((a, b) => b.count - a.count || a.statusCode - b.statusCode),
  };
}

function newest(ctx: StoreContext, where: (eb: Logs) => Expression<SqlBool>, status: string) {
  return ctx.db
    .selectFrom("watch_logs")
    .select(["id", "send_at", "status_code"])
    .where(where)
    .where("status", "=", status)
    .orderBy("send_at", "desc")
    .orderBy("id", "desc")
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
    ctx.db
      .selectFrom("watch_logs")
      .selectAll()
      .where(where)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
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
    const rows: LogRow[] = await ctx.db
      .selectFrom("watch_logs")
      .selectAll()
      .where(matching(webhookId, question))
      .$if(cursor !== null, (qb) =>
        qb.where((eb) =>
          eb.or([
            eb("created_at", "<", cursor!.created_at),
            eb.and([eb("created_at", "=", cursor!.created_at), eb("id", "<", cursor!.id)]),
          ]),
        ),
      )
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
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
      .where((eb) =>
        eb.or([
          eb("created_at", ">", row.created_at),
          eb.and([eb("created_at", "=", row.created_at), eb("id", ">", row.id)]),
        ]),
      )
      .executeTakeFirstOrThrow(),
  ]);
  return { log: logOf(row, webhook), index: Number(before.n) };
}

export async function timeline(ctx: StoreContext, webhookId: string, limit = 100): Promise<TimelineEvent[]> {
  const rows = await ctx.db
    .selectFrom("watch_timeline")
    .selectAll()
    .where("webhook_id", "=", webhookId)
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
