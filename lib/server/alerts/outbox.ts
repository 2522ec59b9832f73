import "server-only";
import { randomUUID } from "node:crypto";
import { alertTitle, type AlertMessage } from "@/lib/domain/alerts/message";
import type { StoreContext } from "@/lib/server/watch/context";

/**
 * The outbox: an alert is recorded for each destination of its application before anything is
 * sent, as a `pending` row of `alert_deliveries` holding the message. The unique (destination,
 * idempotency key) makes a second enqueue of the same alert, by any instance, add nothing; the
 * dispatcher sends what is pending, so a crash between recording and sending loses nothing.
 */

/** Records `message` for every destination of `appId`; answers how many rows were new. */
export async function enqueueAlert(
  ctx: StoreContext,
  appId: string,
  message: AlertMessage,
  now = Date.now(),
): Promise<number> {
  const destinations = await ctx.db
    .selectFrom("alert_destinations")
    .select(["id", "label", "kind"])
    .where("app_id", "=", appId)
    .execute();
  if (destinations.length === 0) return 0;
  const payload = JSON.stringify(message);
  const title = alertTitle(message);
  const inserted = await ctx.db
    .insertInto("alert_deliveries")
    .values(
      destinations.map((destination) => ({
        id: randomUUID(),
        app_id: appId,
        destination_id: destination.id,
        destination_label: destination.label,
        kind: destination.kind,
        idempotency_key: message.idempotencyKey,
        alert_kind: message.kind,
        title,
        state: "pending" as const,
        attempts: 0,
        status_code: null,
        response: "",
        error: null,
        payload,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((conflict) => conflict.columns(["destination_id", "idempotency_key"]).doNothing())
    .returning("id")
    .execute();
  return inserted.length;
}
