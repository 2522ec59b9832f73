/**
 * TEST ONLY (vitest). Sending what the outbox holds, as the console does: the dispatcher's
 * settings for receivers on loopback with short waits, and a dispatcher run until every
 * delivery of the store is delivered, failed or refused.
 */
import type { DeliveryView } from "@/lib/domain/alerts/destinations";
import { deliveryOf } from "@/lib/server/alerts/destinations";
import { createDispatcher, type DispatchSettings } from "@/lib/server/alerts/dispatch";
import type { StoreContext } from "@/lib/server/store/context";

export function testDispatchSettings(overrides: Partial<DispatchSettings> = {}): DispatchSettings {
  return {
    policy: { allowPrivate: true, timeoutMs: 2000 },
    smtp: { url: null, from: "Console <alerts@console.test>", allowPlaintextAuth: false },
    pagerDutyEventsUrl: null,
    attempts: 3,
    backoffMs: 20,
    leaseMs: 10_000,
    concurrency: 8,
    perApplication: 4,
    tickMs: 20,
    ...overrides,
  };
}

/** Every delivery in the store, oldest first. */
export async function allDeliveries(ctx: StoreContext): Promise<DeliveryView[]> {
  const rows = await ctx.db
    .selectFrom("alert_deliveries")
    .selectAll()
    .orderBy("created_at")
    .orderBy("destination_label")
    .execute();
  return rows.map(deliveryOf);
}

const unsettled = (deliveries: DeliveryView[]) =>
  deliveries.some((d) => d.state === "pending" || d.state === "sending");

/** Reads `read` again every 20 ms until `done` holds; rejects with the last value after `timeoutMs`. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000) {
  for (const deadline = Date.now() + timeoutMs; ;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until `ctx`'s deliveries are all settled (whoever sends them). */
export function untilSettled(ctx: StoreContext, timeoutMs = 60_000): Promise<DeliveryView[]> {
  return until(
    () => allDeliveries(ctx),
    (deliveries) => !unsettled(deliveries),
    timeoutMs,
  );
}

/** Runs a dispatcher on `ctx` until every delivery is settled; answers them, oldest first. */
export async function dispatchUntilSettled(
  ctx: StoreContext,
  settings: DispatchSettings = testDispatchSettings(),
): Promise<DeliveryView[]> {
  const dispatcher = createDispatcher(ctx, settings, "test-dispatcher");
  try {
    return await untilSettled(ctx);
  } finally {
    await dispatcher.stop();
  }
}
