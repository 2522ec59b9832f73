import "server-only";
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { failureCause } from "@/lib/domain/failure-signature";
import {
  ISSUE_SAMPLES,
  compareIssues,
  type FailureIssue,
  type IssueAction,
  type IssueState,
} from "@/lib/domain/watch/failure-issue";
import { AppError } from "@/lib/server/app-error";
import { isoOrNull, toIso, type StoreContext } from "@/lib/server/store/context";
import type { StoreDatabase, StoreDb } from "@/lib/server/store/schema";

/**
 * Failure issues: a watched webhook's failures grouped by cause, counted in the transaction that
 * first stores each log, so a poll cut short loses or repeats nothing.
 */

type IssueRow = StoreDatabase["failure_issues"];

/** Characters of a sample's body kept with the issue (the whole stored body is the log's). */
const SAMPLE_BODY_MAX = 500;
/** Stored logs read at once when issues are built from them. */
const REBUILD_BATCH = 1000;
/** Most issues one list answers. */
const LIST_MAX = 200;

/** A log as writeLogs has just inserted it. */
export type FreshLog = Pick<
  StoreDatabase["watch_logs"],
  "id" | "status" | "status_code" | "send_at" | "body" | "body_size"
>;

/**
 * Counts newly stored logs into their issues, then resolves those the webhook has since delivered
 * `resolveAfter` times in a row after. A failure after resolution reopens; an ignored issue stays so.
 */
export async function recordFailures(
  tx: StoreDb,
  webhookId: string,
  fresh: readonly FreshLog[],
  resolveAfter: number,
  now: number,
): Promise<void> {
  const groups = new Map<string, { statusCode: number; signature: string; text: string; logs: FreshLog[] }>();
  for (const log of fresh) {
    if (log.status === "Success") continue;
    const cause = failureCause(log.status_code, log.body);
    const key = `${cause.statusCode} ${cause.signature}`;
    const group = groups.get(key) ?? { ...cause, logs: [] };
    group.logs.push(log);
    groups.set(key, group);
  }
  const touched: string[] = [];
  for (const group of groups.values()) {
    const logs = group.logs.sort((a, b) => b.send_at - a.send_at || b.id.localeCompare(a.id));
    const newest = logs[0]!;
    const oldest = logs.at(-1)!;
    const existing = await tx
      .selectFrom("failure_issues")
      .selectAll()
      .where("webhook_id", "=", webhookId)
      .where("status_code", "=", group.statusCode)
      .where("signature", "=", group.signature)
      .executeTakeFirst();
    let issueId: string;
    if (!existing) {
      issueId = randomUUID();
      await tx
        .insertInto("failure_issues")
        .values({
          id: issueId,
          webhook_id: webhookId,
          status_code: group.statusCode,
          signature: group.signature,
          signature_text: group.text,
          failures: logs.length,
          first_failure_at: oldest.send_at,
          first_failure_id: oldest.id,
          last_failure_at: newest.send_at,
          last_failure_id: newest.id,
          state: "open",
          resolved_at: null,
          resolved_by: null,
          reopened_at: null,
          actor: null,
          note: null,
          changed_at: null,
          created_at: now,
        })
        .execute();
    } else {
      issueId = existing.id;
      const reopens =
        existing.state === "resolved" &&
        existing.resolved_at !== null &&
        newest.send_at > existing.resolved_at;
      const first = oldest.send_at < existing.first_failure_at;
      const last = newest.send_at > existing.last_failure_at;
      await tx
        .updateTable("failure_issues")
        .set((eb) => ({
          failures: eb("failures", "+", logs.length),
          ...(first ? { first_failure_at: oldest.send_at, first_failure_id: oldest.id } : {}),
          ...(last ? { last_failure_at: newest.send_at, last_failure_id: newest.id } : {}),
          ...(reopens
            ? { state: "open" as const, resolved_at: null, resolved_by: null, reopened_at: now }
            : {}),
        }))
        .where("id", "=", issueId)
        .execute();
    }
    touched.push(issueId);
    await keepSamples(tx, issueId, logs.slice(0, ISSUE_SAMPLES));
  }

  const successes = fresh.some((log) => log.status === "Success");
  if (!successes && touched.length === 0) return;
  const candidates = await tx
    .selectFrom("failure_issues")
    .select(["id", "last_failure_at"])
    .where("webhook_id", "=", webhookId)
    .where("state", "in", ["open", "acknowledged"])
    .$if(!successes, (qb) => qb.where("id", "in", touched))
    .execute();
  for (const issue of candidates) {
    const at = await successRunEnd(tx, webhookId, issue.last_failure_at, resolveAfter);
    if (at === null) continue;
    await tx
      .updateTable("failure_issues")
      .set({ state: "resolved", resolved_at: at, resolved_by: "auto" })
      .where("id", "=", issue.id)
      .execute();
  }
}

/** Adds the newest failures to an issue's samples and keeps only its ISSUE_SAMPLES newest. */
async function keepSamples(tx: StoreDb, issueId: string, logs: readonly FreshLog[]) {
  // A backfill reads newest first: failures older than a full set of samples would only be deleted again.
  const full = await tx
    .selectFrom("failure_issue_samples")
    .select("send_at")
    .where("issue_id", "=", issueId)
    .orderBy("send_at", "desc")
    .orderBy("log_id", "desc")
    .offset(ISSUE_SAMPLES - 1)
    .limit(1)
    .executeTakeFirst();
  const candidates = full ? logs.filter((log) => log.send_at >= full.send_at) : logs;
  if (candidates.length === 0) return;
  await tx
    .insertInto("failure_issue_samples")
    .values(
      candidates.map((log) => ({
        issue_id: issueId,
        log_id: log.id,
        send_at: log.send_at,
        body: log.body.slice(0, SAMPLE_BODY_MAX),
        body_size: log.body_size,
      })),
    )
    .onConflict((oc) => oc.columns(["issue_id", "log_id"]).doNothing())
    .execute();
  const kept = tx
    .selectFrom("failure_issue_samples")
    .select("log_id")
    .where("issue_id", "=", issueId)
    .orderBy("send_at", "desc")
    .orderBy("log_id", "desc")
    .limit(ISSUE_SAMPLES);
  await tx
    .deleteFrom("failure_issue_samples")
    .where("issue_id", "=", issueId)
    .where("log_id", "not in", kept)
    .execute();
}

/** When the webhook first completed `count` successes in a row (each failure starts a new run) after `after`. */
async function successRunEnd(tx: StoreDb, webhookId: string, after: number, count: number) {
  const { rows } = await sql<{ at: number | null }>`
    select min(send_at) as at from (
      select send_at, status, sum(case when status = 'Success' then 1 else 0 end)
        over (partition by run order by send_at, id rows between unbounded preceding and current row) as successes
      from (
        select send_at, id, status, sum(case when status = 'Success' then 0 else 1 end)
          over (order by send_at, id rows between unbounded preceding and current row) as run
        from watch_logs
        where webhook_id = ${webhookId} and send_at > ${after}
      ) runs
    ) counted
    where status = 'Success' and successes >= ${count}`.execute(tx);
  const at = rows[0]?.at;
  return at === null || at === undefined ? null : Number(at);
}

/** One webhook's issues from its stored logs, oldest first (a copy that is now watched). */
export async function rebuildIssuesOf(
  db: StoreDb,
  webhookId: string,
  resolveAfter: number,
  now = Date.now(),
): Promise<void> {
  let after: { send_at: number; id: string } | null = null;
  for (;;) {
    const cursor: typeof after = after;
    const batch: FreshLog[] = await db
      .selectFrom("watch_logs")
      .select(["id", "status", "status_code", "send_at", "body", "body_size"])
      .where("webhook_id", "=", webhookId)
      .$if(cursor !== null, (qb) =>
        qb.where((eb) =>
          eb.or([
            eb("send_at", ">", cursor!.send_at),
            eb.and([eb("send_at", "=", cursor!.send_at), eb("id", ">", cursor!.id)]),
          ]),
        ),
      )
      .orderBy("send_at")
      .orderBy("id")
      .limit(REBUILD_BATCH)
      .execute();
    if (batch.length === 0) break;
    await recordFailures(db, webhookId, batch, resolveAfter, now);
    if (batch.length < REBUILD_BATCH) break;
    after = batch.at(-1)!;
  }
}

/** Deletes a webhook's issues and their samples (its watch is going). */
export async function removeIssues(tx: StoreDb, webhookId: string): Promise<void> {
  const ids = tx.selectFrom("failure_issues").select("id").where("webhook_id", "=", webhookId);
  await tx.deleteFrom("failure_issue_samples").where("issue_id", "in", ids).execute();
  await tx.deleteFrom("failure_issues").where("webhook_id", "=", webhookId).execute();
}

/** Deletes resolved and ignored issues whose last failure is older than `cut` (the retention). */
export async function pruneIssues(tx: StoreDb, cut: number): Promise<void> {
  const old = tx
    .selectFrom("failure_issues")
    .select("id")
    .where("last_failure_at", "<", cut)
    .where("state", "in", ["resolved", "ignored"]);
  await tx.deleteFrom("failure_issue_samples").where("issue_id", "in", old).execute();
  await tx.deleteFrom("failure_issues").where("id", "in", old).execute();
}

/** Issues with the name and endpoint of their watch (an issue without a watch is never listed). */
function issueRows(ctx: StoreContext) {
  return ctx.db
    .selectFrom("failure_issues")
    .innerJoin("watches", "watches.webhook_id", "failure_issues.webhook_id")
    .selectAll("failure_issues")
    .select(["watches.app_id", "watches.name", "watches.endpoint"]);
}

/** The issues of the watches of these applications (of one webhook, when given), worst first. */
export async function listIssues(
  ctx: StoreContext,
  appIds: readonly string[],
  filter: { webhookId?: string | null } = {},
): Promise<FailureIssue[]> {
  if (appIds.length === 0) return [];
  const rank = sql<number>`case failure_issues.state when 'open' then 0 when 'acknowledged' then 1 when 'resolved' then 2 else 3 end`;
  const rows = await issueRows(ctx)
    .where("watches.app_id", "in", appIds)
    .$if(Boolean(filter.webhookId), (qb) => qb.where("failure_issues.webhook_id", "=", filter.webhookId!))
    .orderBy(rank)
    .orderBy("failure_issues.last_failure_at", "desc")
    .orderBy("failure_issues.id")
    .limit(LIST_MAX)
    .execute();
  return issuesOf(ctx, rows);
}

async function issuesOf(
  ctx: StoreContext,
  rows: ReadonlyArray<IssueRow & { app_id: string; name: string; endpoint: string }>,
): Promise<FailureIssue[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const samples = await ctx.db
    .selectFrom("failure_issue_samples")
    .selectAll()
    .where("issue_id", "in", ids)
    .orderBy("send_at", "desc")
    .orderBy("log_id", "desc")
    .execute();
  return rows
    .map((row): FailureIssue => ({
      id: row.id,
      webhookId: row.webhook_id,
      appId: row.app_id,
      webhookName: row.name,
      endpoint: row.endpoint,
      statusCode: row.status_code,
      signature: row.signature,
      signatureText: row.signature_text,
      state: row.state,
      failures: row.failures,
      firstFailure: { at: toIso(row.first_failure_at), logId: row.first_failure_id },
      lastFailure: { at: toIso(row.last_failure_at), logId: row.last_failure_id },
      samples: samples
        .filter((sample) => sample.issue_id === row.id)
        .map((sample) => ({
          logId: sample.log_id,
          at: toIso(sample.send_at),
          body: sample.body,
          bodySize: sample.body_size,
        })),
      resolved:
        row.state === "resolved" && row.resolved_at !== null
          ? { at: toIso(row.resolved_at), by: row.resolved_by ?? "person" }
          : null,
      reopenedAt: isoOrNull(row.reopened_at),
      lastChange:
        row.actor !== null && row.changed_at !== null
          ? { name: row.actor, note: row.note, at: toIso(row.changed_at) }
          : null,
      resolveAfter: ctx.issueResolveAfter,
    }))
    .sort(compareIssues);
}

const STATE_OF: Record<IssueAction, IssueState> = {
  acknowledge: "acknowledged",
  resolve: "resolved",
  ignore: "ignored",
  reopen: "open",
};

/**
 * A person's change of an issue, with the name they typed and their note. Resolving marks it
 * resolved now, so only a later failure reopens it. `not_found` for another application's issue.
 */
export async function changeIssue(
  ctx: StoreContext,
  appIds: readonly string[],
  issueId: string,
  change: { action: IssueAction; name: string; note: string | null },
  now = Date.now(),
): Promise<FailureIssue> {
  const notFound = () =>
    new AppError(
      "not_found",
      "This failure issue is not one of your applications' watched webhooks (it may have gone with its watch). Reload the list.",
    );
  if (appIds.length === 0) throw notFound();
  const state = STATE_OF[change.action];
  const updated = await ctx.db
    .updateTable("failure_issues")
    .set({
      state,
      actor: change.name,
      note: change.note,
      changed_at: now,
      ...(state === "resolved"
        ? { resolved_at: now, resolved_by: "person" as const }
        : { resolved_at: null, resolved_by: null }),
      ...(change.action === "reopen" ? { reopened_at: now } : {}),
    })
    .where("id", "=", issueId)
    .where("webhook_id", "in", (eb) =>
      eb.selectFrom("watches").select("webhook_id").where("app_id", "in", appIds),
    )
    .returning("id")
    .executeTakeFirst();
  if (!updated) throw notFound();
  const rows = await issueRows(ctx).where("failure_issues.id", "=", issueId).execute();
  const [issue] = await issuesOf(ctx, rows);
  if (!issue) throw notFound();
  return issue;
}
