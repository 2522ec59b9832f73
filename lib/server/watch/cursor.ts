import "server-only";
import { hash } from "node:crypto";
import type { Webhook, WebhookLog } from "@/lib/domain/hub-schemas";
import { sql, type Selectable, type Updateable } from "kysely";
import { failureCause } from "@/lib/domain/failure-signature";
import { HOUR_MS } from "@/lib/domain/watch/hourly-counts";
import type { StoreContext } from "@/lib/server/store/context";
import { pruneIssues, recordFailures, type FreshLog } from "@/lib/server/watch/failure-issues";
import { EMPTY_QUESTION } from "@/lib/domain/history/question";
import { newest, streak } from "@/lib/server/history/questions";
import type { StoreDatabase, StoreDb } from "@/lib/server/store/schema";
import { inSpans } from "@/lib/domain/maintenance/windows";
import { maintenanceSpansOf, pruneWindows } from "@/lib/server/maintenance/windows-store";

/**
 * The watcher's writes under a lease: a batch of logs goes in one transaction with the cursor that
 * follows it, so a crash loses nothing and repeats nothing.
 */

export interface Claimed {
  state: Selectable<StoreDatabase["watch_state"]>;
  appId: string;
}

/** Lease lost to another instance (or the watch removed) while a poll ran: its work is not written. */
export class LeaseLost extends Error {
  constructor(webhookId: string) {
    super(`the lease on webhook ${webhookId} passed to another instance`);
    this.name = "LeaseLost";
  }
}

/**
 * Claims up to `limit` due webhooks whose lease is free and whose key is not rejected. PostgreSQL
 * locks the candidates (SKIP LOCKED) so instances take different rows; SQLite has one writer anyway.
 */
export async function claimDue(
  ctx: StoreContext,
  owner: string,
  limit: number,
  leaseMs: number,
  now = Date.now(),
): Promise<Claimed[]> {
  if (limit <= 0) return [];
  const due = ctx.db
    .selectFrom("watch_state")
    .innerJoin("watches", "watches.webhook_id", "watch_state.webhook_id")
    .innerJoin("watch_keys", "watch_keys.app_id", "watches.app_id")
    .select("watch_state.webhook_id")
    .where("watch_state.next_poll_at", "<=", now)
    .where("watch_state.lease_until", "<", now)
    .where("watch_keys.rejected_at", "is", null)
    .orderBy("watch_state.next_poll_at")
    .limit(limit)
    .$if(ctx.kind === "postgres", (qb) => qb.forUpdate("watch_state").skipLocked());
  const states = await ctx.db
    .updateTable("watch_state")
    .set({ lease_owner: owner, lease_until: now + leaseMs })
    .where("webhook_id", "in", due)
    .where("lease_until", "<", now)
    .returningAll()
    .execute();
  if (states.length === 0) return [];
  const ids = states.map((s) => s.webhook_id);
  const apps = await ctx.db
    .selectFrom("watches")
    .select(["webhook_id", "app_id"])
    .where("webhook_id", "in", ids)
    .execute();
  const appOf = new Map(apps.map((row) => [row.webhook_id, row.app_id]));
  return states
    .filter((s) => appOf.has(s.webhook_id))
    .map((state) => ({ state, appId: appOf.get(state.webhook_id)! }));
}

/** Extends the lease (and checks it is still ours) inside a transaction; throws LeaseLost otherwise. */
async function holdLease(tx: StoreDb, owner: string, webhookId: string, leaseMs: number, now: number) {
  const held = await tx
    .updateTable("watch_state")
    .set({ lease_until: now + leaseMs })
    .where("webhook_id", "=", webhookId)
    .where("lease_owner", "=", owner)
    .returningAll()
    .executeTakeFirst();
  if (!held) throw new LeaseLost(webhookId);
  return held;
}

/** The webhook's fields from a poll: a change of `active` or `numberOfErrors` goes to its timeline. */
export async function recordWebhook(
  ctx: StoreContext,
  owner: string,
  webhook: Webhook,
  leaseMs: number,
  now = Date.now(),
): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    const state = await holdLease(tx, owner, webhook.id, leaseMs, now);
    const active = webhook.active ? 1 : 0;
    const event = (kind: "active" | "errors", previous: number | null) => ({
      webhook_id: webhook.id,
      at: now,
      kind,
      active,
      number_of_errors: webhook.numberOfErrors,
      previous,
    });
    const events = [
      ...(state.active !== active ? [event("active", state.active)] : []),
      ...(state.number_of_errors !== webhook.numberOfErrors ? [event("errors", state.number_of_errors)] : []),
    ];
    if (events.length > 0) {
      await tx
        .insertInto("watch_timeline")
        .values(events)
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    await tx
      .updateTable("watch_state")
      .set({ active, number_of_errors: webhook.numberOfErrors })
      .where("webhook_id", "=", webhook.id)
      .execute();
    await tx
      .updateTable("watches")
      .set({ endpoint: webhook.endpoint, event_type: webhook.eventType })
      .where("webhook_id", "=", webhook.id)
      .execute();
  });
}

/** The part of a body the watch keeps: cut at `capBytes`, never inside a character. */
export function keptBody(body: string, capBytes: number): string {
  const bytes = Buffer.from(body, "utf8");
  if (bytes.length <= capBytes) return body;
  const kept = bytes.subarray(0, capBytes).toString("utf8");
  return kept.endsWith("\ufffd") ? kept.slice(0, -1) : kept;
}

/** The body as stored: its kept part, with its full size and hash. */
function compactBody(body: string, capBytes: number) {
  const size = Buffer.byteLength(body, "utf8");
  return {
    body: size <= capBytes ? body : keptBody(body, capBytes),
    body_size: size,
    body_sha256: hash("sha256", body),
  };
}

/**
 * The cause signature a stored log keeps: a failure's, from its kept body, as recordFailures
 * groups it into an issue; null for a success.
 */
export function storedSignature(status: string, statusCode: number, kept: string): string | null {
  return status === "Success" ? null : failureCause(statusCode, kept).signature;
}

/** What a write moves the cursor to (fields left out stay as they are). */
export type CursorChange = Pick<
  Updateable<StoreDatabase["watch_state"]>,
  "head_id" | "tail_offset" | "backfill_read" | "complete_from" | "history_complete" | "hub_total"
>;

/**
 * Writes logs (ids already stored are skipped) and the cursor in one transaction; returns the new
 * ids. A watched webhook's issues and summary follow them; a copy gets those once watched (adoptCopy).
 */
export async function writeLogs(
  ctx: StoreContext,
  owner: string,
  webhookId: string,
  logs: readonly WebhookLog[],
  cursor: CursorChange,
  leaseMs: number,
  now = Date.now(),
  { watched = true }: { watched?: boolean } = {},
): Promise<string[]> {
  return ctx.db.transaction().execute(async (tx) => {
    await holdLease(tx, owner, webhookId, leaseMs, now);
    const fresh: FreshLog[] = [];
    for (let i = 0; i < logs.length; i += 200) {
      const rows = logs.slice(i, i + 200).map((log) => {
        const kept = compactBody(log.responseBody, ctx.bodyCapBytes);
        return {
          webhook_id: webhookId,
          id: log.id.toLowerCase(),
          status: log.status,
          status_code: log.statusCode,
          send_at: Date.parse(log.sendAt),
          created_at: Date.parse(log.createdDate),
          message_id: log.messageId?.toLowerCase() ?? null,
          ...kept,
          signature: storedSignature(log.status, log.statusCode, kept.body),
        };
      });
      const inserted = await tx
        .insertInto("watch_logs")
        .values(rows)
        .onConflict((oc) => oc.columns(["webhook_id", "id"]).doNothing())
        .returning(["id", "status", "status_code", "send_at", "body", "body_size"])
        .execute();
      fresh.push(...inserted);
    }
    await countHours(tx, webhookId, fresh, watched);
    if (watched && fresh.length > 0) await recordFailures(tx, webhookId, fresh, ctx.issueResolveAfter, now);
    const summary = watched && fresh.length > 0 ? await summarise(tx, webhookId) : {};
    await tx
      .updateTable("watch_state")
      .set((eb) => ({ ...cursor, ...summary, stored_logs: eb("stored_logs", "+", fresh.length) }))
      .where("webhook_id", "=", webhookId)
      .execute();
    return fresh.map((log) => log.id);
  });
}

type CodeCount = { hour: number; status_code: number; failed: number };

/** Adds failures per hour and status code to a count table, `watch_log_codes` or its part in maintenance. */
async function addCodes(
  tx: StoreDb,
  table: "watch_log_codes" | "watch_maintenance_codes",
  webhookId: string,
  codes: Iterable<CodeCount>,
): Promise<void> {
  for (const code of codes) {
    await tx
      .insertInto(table)
      .values({ webhook_id: webhookId, ...code })
      .onConflict((oc) =>
        oc
          .columns(["webhook_id", "hour", "status_code"])
          .doUpdateSet({ failed: sql<number>`${sql.ref(`${table}.failed`)} + ${code.failed}` }),
      )
      .execute();
  }
}

/**
 * Adds logs to the hourly counts the overview and /metrics read instead of the logs. A watched
 * webhook's failures inside its maintenance windows (as they stand now) are also counted apart.
 */
async function countHours(
  tx: StoreDb,
  webhookId: string,
  logs: readonly FreshLog[],
  watched: boolean,
): Promise<void> {
  const hours = new Map<number, { success: number; failed: number }>();
  const codes = new Map<string, CodeCount>();
  const maintenance = new Map<string, CodeCount>();
  const failures = logs.filter((log) => log.status !== "Success");
  const sent = failures.map((log) => log.send_at);
  const spans =
    watched && failures.length > 0
      ? await maintenanceSpansOf(tx, webhookId, Math.min(...sent), Math.max(...sent))
      : [];
  const count = (into: Map<string, CodeCount>, hour: number, statusCode: number) => {
    const key = `${hour} ${statusCode}`;
    const code = into.get(key) ?? { hour, status_code: statusCode, failed: 0 };
    code.failed++;
    into.set(key, code);
  };
  for (const log of logs) {
    const hour = Math.floor(log.send_at / HOUR_MS) * HOUR_MS;
    const counts = hours.get(hour) ?? { success: 0, failed: 0 };
    if (log.status === "Success") counts.success++;
    else {
      counts.failed++;
      count(codes, hour, log.status_code);
      if (inSpans(spans, log.send_at)) count(maintenance, hour, log.status_code);
    }
    hours.set(hour, counts);
  }
  for (const [hour, counts] of hours) {
    await tx
      .insertInto("watch_log_hours")
      .values({ webhook_id: webhookId, hour, ...counts })
      .onConflict((oc) =>
        oc.columns(["webhook_id", "hour"]).doUpdateSet((eb) => ({
          success: eb("watch_log_hours.success", "+", counts.success),
          failed: eb("watch_log_hours.failed", "+", counts.failed),
        })),
      )
      .execute();
  }
  await addCodes(tx, "watch_log_codes", webhookId, codes.values());
  await addCodes(tx, "watch_maintenance_codes", webhookId, maintenance.values());
}

/** Last success, last failure and the failing streak over everything stored: the overview's row. */
export async function summarise(tx: StoreDb, webhookId: string) {
  const state = await tx
    .selectFrom("watch_state")
    .select("history_complete")
    .where("webhook_id", "=", webhookId)
    .executeTakeFirst();
  const scope = { webhookId, from: null, complete: state?.history_complete === 1 };
  const [success, failure, failing] = await Promise.all([
    newest(tx, scope, EMPTY_QUESTION, "Success"),
    newest(tx, scope, EMPTY_QUESTION, "Failed"),
    streak(tx, scope),
  ]);
  return {
    last_success_at: success?.send_at ?? null,
    last_success_id: success?.id ?? null,
    last_failure_at: failure?.send_at ?? null,
    last_failure_id: failure?.id ?? null,
    last_failure_code: failure?.status_code ?? null,
    streak_since: failing ? Date.parse(failing.since) : null,
    streak_length: failing?.length ?? 0,
  };
}

/** Ends a poll: releases the lease, plans the next poll, records its outcome as of `now` (when it began reading). */
export async function finishPoll(
  ctx: StoreContext,
  owner: string,
  webhookId: string,
  outcome: { nextPollAt: number; error: { code: string; message: string } | null },
  now = Date.now(),
): Promise<void> {
  await ctx.db
    .updateTable("watch_state")
    .set((eb) => ({
      lease_owner: null,
      lease_until: 0,
      next_poll_at: outcome.nextPollAt,
      ...(outcome.error
        ? {
            poll_failures: eb("poll_failures", "+", 1),
            poll_error_code: outcome.error.code,
            poll_error_message: outcome.error.message,
            poll_error_at: now,
          }
        : {
            polled_at: now,
            copied_at: now,
            poll_failures: 0,
            poll_error_code: null,
            poll_error_message: null,
            poll_error_at: null,
          }),
    }))
    .where("webhook_id", "=", webhookId)
    .where("lease_owner", "=", owner)
    .execute();
}

/**
 * Deletes what is older than the retention. A webhook that lost logs no longer holds its whole
 * history: its store is complete from the cut.
 */
export async function prune(ctx: StoreContext, retentionDays: number, now = Date.now()): Promise<number> {
  const cut = now - retentionDays * 86_400_000;
  return ctx.db.transaction().execute(async (tx) => {
    const removed = await tx
      .deleteFrom("watch_logs")
      .where("created_at", "<", cut)
      .returning("webhook_id")
      .execute();
    for (const table of [
      "watch_log_hours",
      "watch_log_codes",
      "watch_maintenance_codes",
      "watch_hub_calls",
    ] as const) {
      await tx
        .deleteFrom(table)
        .where("hour", "<", cut - HOUR_MS)
        .execute();
    }
    await tx.deleteFrom("watch_timeline").where("at", "<", cut).execute();
    await pruneWindows(tx, cut - HOUR_MS);
    await pruneIssues(tx, cut);
    const counts = new Map<string, number>();
    for (const { webhook_id } of removed) counts.set(webhook_id, (counts.get(webhook_id) ?? 0) + 1);
    for (const [webhookId, count] of counts) {
      await tx
        .updateTable("watch_state")
        .set((eb) => ({
          stored_logs: eb("stored_logs", "-", count),
          history_complete: 0,
          complete_from: sql<number>`case when complete_from is null or complete_from < ${cut} then ${cut} else complete_from end`,
        }))
        .where("webhook_id", "=", webhookId)
        .execute();
    }
    return removed.length;
  });
}
