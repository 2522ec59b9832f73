/**
 * TEST ONLY (vitest). A watch store holding something for every metric /metrics exposes, written
 * through the store's own functions: two applications ("Shop" named, the other known by its id
 * and its key rejected), a failing webhook, a recovered one, one never polled, one failing in a
 * maintenance window, incidents, alert deliveries in the outbox and out of it, and the watcher's
 * hub calls.
 */
import { randomUUID } from "node:crypto";
import type { Webhook, WebhookLog } from "@/lib/domain/hub-schemas";
import { rememberApplicationNames } from "@/lib/server/alerts/application-names";
import { AppError } from "@/lib/server/app-error";
import type { StoreContext } from "@/lib/server/store/context";
import { claimDue, finishPoll, recordWebhook, writeLogs } from "@/lib/server/watch/cursor";
import { HubCallCounts } from "@/lib/server/watch/hub-calls";

import { addWatches, markKeyRejected } from "@/lib/server/watch/watches";
import { addWindow } from "@/lib/server/maintenance/windows-store";
import { incidentRow } from "@/tests/support/alert-incidents";
import { webhookLog } from "@/tests/support/webhook-log";

export const SHOP = "5a0b1c2d3e4f5061";
export const BILLING = "b1111111c2222222";
export const SHOP_KEY = "shop-key-7f3a9c2e5b1d4e6f8a0b";
export const BILLING_KEY = "billing-key-0c1d2e3f4a5b6c7d";
/** Failing now: two failures (503, then 500) after a success. */
export const ORDERS = "0a1b2c3d-0000-4000-8000-000000000001";
/** Recovered: a success after two failures (one of them 26 hours ago, outside both windows). */
export const INVOICES = "0a1b2c3d-0000-4000-8000-000000000002";
/** Of the application whose key is rejected: never polled. */
export const QUIET = "0a1b2c3d-0000-4000-8000-000000000003";
/** In a maintenance window since 3 minutes ago: two 503s inside it, a 502 before it. */
export const DEPLOYS = "0a1b2c3d-0000-4000-8000-000000000004";

const MINUTE = 60_000;

function webhookOf(id: string, fields: Partial<Webhook> = {}): Webhook {
  return {
    id,
    endpoint: `https://${id.slice(-4)}.example.test/hook`,
    eventType: "Message",
    active: true,
    numberOfErrors: 0,
    ...fields,
  } as Webhook;
}

const logAt = (webhookId: string, at: number, code: number): WebhookLog =>
  webhookLog(webhookId, at, code, code < 300 ? "ok" : `{"error":"status ${code}"}`, {
    id: randomUUID(),
    messageId: randomUUID(),
  });

/** One poll as the watcher makes it: the webhook's fields, its logs (newest first), the next poll planned. */
async function poll(ctx: StoreContext, webhook: Webhook, logs: WebhookLog[], nextPollAt: number) {
  const now = Date.now();
  await claimDue(ctx, "test", 100, MINUTE, now);
  await recordWebhook(ctx, "test", webhook, MINUTE, now);
  await writeLogs(ctx, "test", webhook.id, logs, { head_id: logs[0]!.id, tail_offset: null }, MINUTE, now);
  await finishPoll(ctx, "test", webhook.id, { nextPollAt, error: null }, now);
}

function delivery(kind: "slack" | "webhook" | "email", state: string, createdAt: number) {
  return {
    id: randomUUID(),
    app_id: SHOP,
    destination_id: `dest_${kind}`,
    destination_label: kind,
    kind,
    idempotency_key: randomUUID(),
    alert_kind: "firing",
    title: "Orders is failing",
    state: state as "pending",
    attempts: state === "pending" ? 0 : 1,
    status_code: null,
    response: "",
    error: null,
    created_at: createdAt,
    updated_at: createdAt,
    payload: "{}",
  };
}

/** Fills `ctx`; `now` is when the logs' times are counted back from. */
export async function fillMetricsStore(ctx: StoreContext, now = Date.now()): Promise<void> {
  await addWatches(ctx, SHOP, SHOP_KEY, [
    { webhook: webhookOf(ORDERS), name: "Orders" },
    { webhook: webhookOf(INVOICES), name: "Invoices" },
    { webhook: webhookOf(DEPLOYS), name: "Deploys" },
  ]);
  await addWatches(ctx, BILLING, BILLING_KEY, [{ webhook: webhookOf(QUIET), name: "Quiet" }]);
  await rememberApplicationNames(ctx, new Map([[SHOP, "Shop"]]));
  await markKeyRejected(ctx, BILLING, "The Messaging Hub rejected this key.");

  // A window from 3 minutes ago (to the minute, UTC) for an hour, set before the logs are written.
  const minute = (at: number) => new Date(at).toISOString().slice(0, 16);
  await addWindow(
    ctx,
    SHOP,
    {
      webhookId: DEPLOYS,
      repeats: "once",
      start: minute(now - 3 * MINUTE),
      end: minute(now + 60 * MINUTE),
      zone: "UTC",
      note: "",
    },
    now,
  );
  await poll(
    ctx,
    webhookOf(DEPLOYS),
    [
      logAt(DEPLOYS, now - MINUTE, 503),
      logAt(DEPLOYS, now - 2 * MINUTE, 503),
      logAt(DEPLOYS, now - 4 * MINUTE, 502),
    ],
    now + 10 * MINUTE,
  );

  await poll(
    ctx,
    webhookOf(ORDERS, { numberOfErrors: 7 }),
    [
      logAt(ORDERS, now - MINUTE, 503),
      logAt(ORDERS, now - 2 * MINUTE, 500),
      logAt(ORDERS, now - 3 * MINUTE, 200),
    ],
    now + 10 * MINUTE,
  );
  // Its next poll is 90 s overdue: the watcher's lag.
  await poll(
    ctx,
    webhookOf(INVOICES, { active: false }),
    [
      logAt(INVOICES, now - MINUTE, 200),
      logAt(INVOICES, now - 2 * MINUTE, 500),
      logAt(INVOICES, now - 26 * 60 * MINUTE, 500),
    ],
    now - 90_000,
  );

  await ctx.db
    .insertInto("alert_incidents")
    .values([
      incidentRow({
        appId: SHOP,
        webhookId: ORDERS,
        openedAt: now - MINUTE,
        conditions: [
          { rule: "streak", headline: "5 failures in a row" },
          { rule: "rate", headline: "100 % of 10 attempts failed in the last 15 minutes" },
        ],
      }),
      incidentRow({
        appId: SHOP,
        webhookId: INVOICES,
        openedAt: now - 60 * MINUTE,
        resolvedAt: now - MINUTE,
      }),
      incidentRow({
        appId: BILLING,
        webhookId: "",
        scope: "application",
        openedAt: now - 5 * MINUTE,
        conditions: [{ rule: "watchUnreadable", headline: "the hub rejects this application's API key" }],
      }),
    ])
    .execute();
  await ctx.db
    .insertInto("alert_deliveries")
    .values([
      delivery("slack", "pending", now - 5 * MINUTE),
      delivery("webhook", "sending", now - MINUTE),
      delivery("webhook", "delivered", now - 30 * MINUTE),
      delivery("webhook", "delivered", now - 20 * MINUTE),
      delivery("email", "failed", now - 10 * MINUTE),
    ])
    .execute();

  const calls = new HubCallCounts();
  const signal = new AbortController().signal;
  for (let i = 0; i < 3; i++) await calls.count(Promise.resolve("answer"), signal);
  const timeout = new AppError("upstream_timeout", "The hub did not answer in time.");
  await calls.count(Promise.reject(timeout), signal).catch(() => undefined);
  await calls.flush(ctx, now);
}
