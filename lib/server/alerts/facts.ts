import "server-only";
import { sql } from "kysely";
import { rankCodes, type CodeCount, type WebhookFacts } from "@/lib/domain/alerts/evaluate";
import { SAMPLES_MAX, type AlertSample, type AlertWebhook } from "@/lib/domain/alerts/message";
import type { RuleSettings } from "@/lib/domain/alerts/rules";
import type { StoreContext } from "@/lib/server/store/context";

/**
 * What the rules are judged on, read from the watch's store: the webhook's state (streak, active,
 * numberOfErrors, poll failures), its attempts within the rate window, its successes since its
 * last failure, and its timeline.
 */

const MINUTE = 60_000;

export interface WatchedWebhook {
  appId: string;
  webhook: AlertWebhook;
}

/** The watch of a webhook (null when it is no longer watched) and the facts its rules are judged on. */
export async function webhookFacts(
  ctx: StoreContext,
  webhookId: string,
  rules: Pick<RuleSettings, "rate">,
  now: number,
): Promise<(WatchedWebhook & { facts: WebhookFacts }) | null> {
  const row = await ctx.db
    .selectFrom("watch_state")
    .innerJoin("watches", "watches.webhook_id", "watch_state.webhook_id")
    .select([
      "watches.app_id",
      "watches.name",
      "watches.endpoint",
      "watches.created_at",
      "watch_state.active",
      "watch_state.number_of_errors",
      "watch_state.streak_length",
      "watch_state.streak_since",
      "watch_state.last_success_at",
      "watch_state.last_failure_at",
      "watch_state.poll_failures",
      "watch_state.poll_error_code",
    ])
    .where("watch_state.webhook_id", "=", webhookId)
    .executeTakeFirst();
  if (!row) return null;
  const windowStart = now - rules.rate.windowMinutes * MINUTE;
  // After a failed poll only `watchUnreadable` is judged: the delivery facts are not read.
  const readable = row.poll_failures === 0;
  const streakCodes =
    readable && row.streak_length > 0 && row.streak_since !== null
      ? await failureCodes(ctx, webhookId, row.streak_since)
      : [];
  const window = readable
    ? await attemptsSince(ctx, webhookId, windowStart)
    : { attempts: 0, failures: 0, codes: [], firstFailureAt: null };
  const before = readable ? await errorsAt(ctx, webhookId, windowStart, row.number_of_errors) : null;
  const errors = {
    now: row.number_of_errors,
    before,
    roseAt:
      before !== null && row.number_of_errors !== null && row.number_of_errors > before
        ? await errorsRoseAt(ctx, webhookId, windowStart, before)
        : null,
  };
  const successRun = readable
    ? await successesSince(ctx, webhookId, row.last_failure_at, ctx.issueResolveAfter)
    : 0;
  const deliveries = [row.last_success_at, row.last_failure_at].filter((at): at is number => at !== null);
  return {
    appId: row.app_id,
    webhook: { id: webhookId, name: row.name, endpoint: row.endpoint },
    facts: {
      active: row.active === null ? null : row.active === 1,
      streak: { length: row.streak_length, since: row.streak_since, codes: streakCodes },
      successRun,
      window,
      errors,
      lastDeliveryAt: deliveries.length > 0 ? Math.max(...deliveries.map(Number)) : null,
      watchedSince: Number(row.created_at),
      read: { pollFailures: row.poll_failures, errorCode: row.poll_error_code },
    },
  };
}

/** Successful deliveries sent after the newest failure (after none: any), counted up to `upTo`. */
async function successesSince(
  ctx: StoreContext,
  webhookId: string,
  lastFailureAt: number | null,
  upTo: number,
): Promise<number> {
  const rows = await ctx.db
    .selectFrom("watch_logs")
    .select("id")
    .where("webhook_id", "=", webhookId)
    .where("status", "=", "Success")
    .$if(lastFailureAt !== null, (qb) => qb.where("send_at", ">", lastFailureAt!))
    .limit(upTo)
    .execute();
  return rows.length;
}

/** Failed attempts sent from `since` on, counted by status code. */
async function failureCodes(ctx: StoreContext, webhookId: string, since: number): Promise<CodeCount[]> {
  const rows = await ctx.db
    .selectFrom("watch_logs")
    .select(["status_code", (eb) => eb.fn.countAll<number>().as("n")])
    .where("webhook_id", "=", webhookId)
    .where("status", "<>", "Success")
    .where("send_at", ">=", since)
    .groupBy("status_code")
    .execute();
  return rankCodes(rows.map((r) => ({ code: r.status_code, count: Number(r.n) })));
}

/** Attempts and failures sent from `since` on, the failures' codes and the first failure's time. */
async function attemptsSince(ctx: StoreContext, webhookId: string, since: number) {
  const rows = await ctx.db
    .selectFrom("watch_logs")
    .select([
      sql<number>`case when status = 'Success' then 1 else 0 end`.as("ok"),
      "status_code",
      (eb) => eb.fn.countAll<number>().as("n"),
      (eb) => eb.fn.min("send_at").as("first"),
    ])
    .where("webhook_id", "=", webhookId)
    .where("send_at", ">=", since)
    .groupBy(["ok", "status_code"])
    .execute();
  const failed = rows.filter((r) => Number(r.ok) === 0);
  const firsts = failed.map((r) => Number(r.first));
  return {
    attempts: rows.reduce((sum, r) => sum + Number(r.n), 0),
    failures: failed.reduce((sum, r) => sum + Number(r.n), 0),
    codes: rankCodes(failed.map((r) => ({ code: r.status_code, count: Number(r.n) }))),
    firstFailureAt: firsts.length > 0 ? Math.min(...firsts) : null,
  };
}

/**
 * `numberOfErrors` as it was at `at`, from the timeline of its changes: the last change at or
 * before it, else what the first change after it started from, else the value now.
 */
async function errorsAt(
  ctx: StoreContext,
  webhookId: string,
  at: number,
  current: number | null,
): Promise<number | null> {
  const timeline = ctx.db
    .selectFrom("watch_timeline")
    .select(["number_of_errors", "previous"])
    .where("webhook_id", "=", webhookId)
    .where("kind", "=", "errors");
  const before = await timeline.where("at", "<=", at).orderBy("at", "desc").limit(1).executeTakeFirst();
  if (before) return before.number_of_errors;
  const after = await timeline.where("at", ">", at).orderBy("at").limit(1).executeTakeFirst();
  // A first read has no value before it: the count starts from what it read.
  return after ? Number(after.previous ?? after.number_of_errors) : current;
}

/** When `numberOfErrors` first rose above `before` after `from`: when a jump began. */
async function errorsRoseAt(ctx: StoreContext, webhookId: string, from: number, before: number) {
  const row = await ctx.db
    .selectFrom("watch_timeline")
    .select("at")
    .where("webhook_id", "=", webhookId)
    .where("kind", "=", "errors")
    .where("at", ">", from)
    .where("number_of_errors", ">", before)
    .orderBy("at")
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.at) : null;
}

/** The newest failed attempts of a webhook, as an alert's samples (their bodies whole: the message cuts them once redacted). */
export async function failureSamples(ctx: StoreContext, webhookId: string): Promise<AlertSample[]> {
  const rows = await ctx.db
    .selectFrom("watch_logs")
    .select(["id", "status_code", "send_at", "body"])
    .where("webhook_id", "=", webhookId)
    .where("status", "<>", "Success")
    .orderBy("send_at", "desc")
    .orderBy("id", "desc")
    .limit(SAMPLES_MAX)
    .execute();
  return rows.map((r) => ({
    logId: r.id,
    statusCode: r.status_code,
    sentAt: new Date(Number(r.send_at)).toISOString(),
    body: r.body,
  }));
}

/** Failed attempts of a webhook sent between `since` and `until`: the failures an incident lasted. */
export async function failuresBetween(
  ctx: StoreContext,
  webhookId: string,
  since: number,
  until: number,
): Promise<number> {
  const row = await ctx.db
    .selectFrom("watch_logs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("webhook_id", "=", webhookId)
    .where("status", "<>", "Success")
    .where("send_at", ">=", since)
    .where("send_at", "<=", until)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
