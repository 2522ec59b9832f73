import "server-only";
import { randomUUID } from "node:crypto";
import type { ExpressionBuilder, Selectable } from "kysely";
import { RESPONSE_SNIPPET_MAX, type DeliveryState } from "@/lib/domain/alerts/destinations";
import { alertTitle, type AlertMessage } from "@/lib/domain/alerts/message";
import type { StoreContext } from "@/lib/server/store/context";
import type { StoreDatabase } from "@/lib/server/store/schema";

/**
 * The outbox: an alert is recorded for each destination of its application before anything is
 * sent, as a `pending` row of `alert_deliveries` holding the message. The unique (destination,
 * idempotency key) makes a second enqueue of the same alert, by any instance, add nothing; the
 * dispatcher claims what is due under a lease, so a crash between recording and sending loses
 * nothing, and a sender that dies mid-send leaves a lease that lapses for another to take.
 */

export type OutboxRow = Selectable<StoreDatabase["alert_deliveries"]>;

/** Who holds a claim, and until when (epoch ms). */
export interface Lease {
  owner: string;
  until: number;
}

interface Destination {
  id: string;
  app_id: string;
  label: string;
  kind: OutboxRow["kind"];
}

function outboxRows(destinations: readonly Destination[], message: AlertMessage, now: number) {
  const payload = JSON.stringify(message);
  const title = alertTitle(message);
  return destinations.map((destination) => ({
    id: randomUUID(),
    app_id: destination.app_id,
    destination_id: destination.id,
    destination_label: destination.label,
    kind: destination.kind,
    idempotency_key: message.idempotencyKey,
    alert_kind: message.kind,
    title,
    state: "pending" as DeliveryState,
    attempts: 0,
    status_code: null,
    response: "",
    error: null,
    payload,
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  }));
}

/** Records `message` for every destination of `appId`; answers how many rows were new. */
export async function enqueueAlert(
  ctx: StoreContext,
  appId: string,
  message: AlertMessage,
  now = Date.now(),
): Promise<number> {
  const destinations = await ctx.db
    .selectFrom("alert_destinations")
    .select(["id", "app_id", "label", "kind"])
    .where("app_id", "=", appId)
    .execute();
  if (destinations.length === 0) return 0;
  const inserted = await ctx.db
    .insertInto("alert_deliveries")
    .values(outboxRows(destinations, message, now))
    .onConflict((conflict) => conflict.columns(["destination_id", "idempotency_key"]).doNothing())
    .returning("id")
    .execute();
  return inserted.length;
}

/**
 * Records `message` for one destination already claimed by `lease.owner` for its first attempt
 * (a test alert, sent while the person waits); should that sender die, the lease lapses and the
 * dispatcher sends it.
 */
export async function enqueueClaimed(
  ctx: StoreContext,
  destination: Destination,
  message: AlertMessage,
  lease: Lease,
  now = Date.now(),
): Promise<OutboxRow> {
  const [row] = outboxRows([destination], message, now);
  return ctx.db
    .insertInto("alert_deliveries")
    .values({
      ...row!,
      state: "sending",
      attempts: 1,
      lease_owner: lease.owner,
      lease_until: lease.until,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Due: pending and its time has come, or being sent by an instance whose lease lapsed. */
const due = (now: number) => (eb: ExpressionBuilder<StoreDatabase, "alert_deliveries">) =>
  eb.or([
    eb.and([eb("state", "=", "pending"), eb("next_attempt_at", "<=", now)]),
    eb.and([eb("state", "=", "sending"), eb("lease_until", "<", now)]),
  ]);

/** How many rows one claim may take. */
export interface ClaimLimits {
  /** Rows claimed at most (the sender's free slots). */
  limit: number;
  /** Rows of one application in flight at most, counting those other senders hold. */
  perApplication: number;
}

/**
 * Claims due rows for `lease.owner`, fairly: at most one per destination and none of a
 * destination being sent to now (a destination that hangs holds up only its own alerts), at
 * most `perApplication` in flight per application, and the applications with the fewest in
 * flight first, so one application's many slow receivers cannot take every slot and hold
 * another's alerts. Each claim counts as an attempt. The UPDATE checks again that each row is
 * still due (PostgreSQL: skipping rows another instance has locked), so no row is claimed twice.
 */
export async function claimDue(
  ctx: StoreContext,
  lease: Lease,
  { limit, perApplication }: ClaimLimits,
  now = Date.now(),
): Promise<OutboxRow[]> {
  if (limit <= 0) return [];
  return ctx.db.transaction().execute(async (tx) => {
    const live = tx
      .selectFrom("alert_deliveries")
      .where("state", "=", "sending")
      .where("lease_until", ">=", now);
    const inFlight = new Map(
      (
        await live
          .select(["app_id", (eb) => eb.fn.countAll<number | string>().as("rows")])
          .groupBy("app_id")
          .execute()
      ).map((row) => [row.app_id, Number(row.rows)]),
    );
    // Each destination's next row, then each application's first `perApplication` of those.
    const nextOfDestination = tx
      .selectFrom("alert_deliveries")
      .select(["id", "app_id", "next_attempt_at", "created_at"])
      .select((eb) =>
        eb.fn
          .agg<number>("row_number")
          .over((ob) => ob.partitionBy("destination_id").orderBy("next_attempt_at").orderBy("created_at"))
          .as("in_destination"),
      )
      .where(due(now))
      .where("destination_id", "not in", live.select("destination_id"))
      .as("next_of_destination");
    const ranked = await tx
      .selectFrom(
        tx
          .selectFrom(nextOfDestination)
          .select(["id", "app_id", "next_attempt_at"])
          .select((eb) =>
            eb.fn
              .agg<number>("row_number")
              .over((ob) => ob.partitionBy("app_id").orderBy("next_attempt_at").orderBy("created_at"))
              .as("in_app"),
          )
          .where("in_destination", "=", 1)
          .as("ranked"),
      )
      .select(["id", "app_id", "next_attempt_at", "in_app"])
      .where("in_app", "<=", perApplication)
      .execute();
    const chosen = ranked
      .map((row) => ({ ...row, load: Number(row.in_app) + (inFlight.get(row.app_id) ?? 0) }))
      .filter((row) => row.load <= perApplication)
      .sort((a, b) => a.load - b.load || Number(a.next_attempt_at) - Number(b.next_attempt_at))
      .slice(0, limit)
      .map((row) => row.id);
    if (chosen.length === 0) return [];
    return tx
      .updateTable("alert_deliveries")
      .set((eb) => ({
        state: "sending",
        attempts: eb("attempts", "+", 1),
        lease_owner: lease.owner,
        lease_until: lease.until,
        updated_at: now,
      }))
      .where("id", "in", (eb) =>
        eb
          .selectFrom("alert_deliveries")
          .select("id")
          .where("id", "in", chosen)
          .where(due(now))
          .$if(ctx.kind === "postgres", (qb) => qb.forUpdate().skipLocked()),
      )
      .where(due(now))
      .returningAll()
      .execute();
  });
}

/** How an attempt ended, as the log keeps it; `nextAttemptAt` when the row goes back to pending. */
export interface AttemptRecord {
  state: Exclude<DeliveryState, "sending">;
  statusCode: number | null;
  response: string;
  error: string | null;
  nextAttemptAt?: number;
}

/**
 * Writes an attempt's outcome and releases the claim, if `owner` still holds it; undefined when
 * another instance took the row over (its own attempt is the one the log keeps).
 */
export async function recordAttempt(
  ctx: StoreContext,
  id: string,
  owner: string,
  attempt: AttemptRecord,
  now = Date.now(),
): Promise<OutboxRow | undefined> {
  return ctx.db
    .updateTable("alert_deliveries")
    .set({
      state: attempt.state,
      status_code: attempt.statusCode,
      response: attempt.response.slice(0, RESPONSE_SNIPPET_MAX),
      error: attempt.error,
      next_attempt_at: attempt.nextAttemptAt ?? 0,
      lease_owner: null,
      lease_until: 0,
      updated_at: now,
    })
    .where("id", "=", id)
    .where("state", "=", "sending")
    .where("lease_owner", "=", owner)
    .returningAll()
    .executeTakeFirst();
}
