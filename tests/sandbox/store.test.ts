/**
 * The store's guarantees: a delivery is logged at most once, counters move with logs in one
 * transaction, the log list query walks an index (fast on 1M logs), and the env is read strictly.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { optionsFromEnv } from "../../lib/sandbox/config";
import { openDatabase, type Db } from "../../lib/sandbox/db";
import { createStore, LIST_LOGS_BY_STATUS_SQL, LIST_LOGS_SQL, type Store } from "../../lib/sandbox/store";

let db: Db;
let store: Store;

beforeEach(() => {
  db = openDatabase(":memory:");
  store = createStore(db);
});
afterEach(() => db.close());

function queuedDelivery() {
  const app = store.createApplication("a");
  const channel = store.createChannel(app.id, "sms");
  const webhook = store.createWebhook({
    applicationId: app.id,
    endpoint: "http://127.0.0.1:1/",
    eventType: "Message",
    active: true,
  });
  const message = store.createMessage({ applicationId: app.id, channel, to: "1", content: { text: "x" } });
  const [deliveryId] = store.queuedDeliveryIds(webhook.id, 0, 10);
  if (deliveryId === undefined) throw new Error("no delivery queued");
  return { webhook, message, deliveryId };
}

const failedLog = (webhookId: string, deliveryId: number, messageId: string) => ({
  webhookId,
  deliveryId,
  messageId,
  statusCode: 500,
  responseBody: "boom",
  status: "Failed" as const,
  sendAt: new Date().toISOString(),
  createdDate: new Date().toISOString(),
});

describe("recordLog", () => {
  it("logs a delivery once: a second record of the same delivery changes nothing", () => {
    const { webhook, message, deliveryId } = queuedDelivery();
    expect(store.recordLog(failedLog(webhook.id, deliveryId, message.id))).toBe(true);
    expect(store.recordLog(failedLog(webhook.id, deliveryId, message.id))).toBe(false);
    expect(store.getWebhook(webhook.id)).toMatchObject({ numberOfErrors: 1, logCount: 1 });
    expect(store.stats()).toMatchObject({ logs: 1, queuedDeliveries: 0, doneDeliveries: 1 });
  });

  it("is all or nothing: when the log cannot be written, the delivery stays queued and counters stay", () => {
    const { webhook, message, deliveryId } = queuedDelivery();
    const bad = { ...failedLog(webhook.id, deliveryId, message.id), status: "Broken" as unknown as "Failed" };
    expect(() => store.recordLog(bad)).toThrow(/CHECK constraint/);
    expect(store.getWebhook(webhook.id)).toMatchObject({ numberOfErrors: 0, logCount: 0 });
    expect(store.stats()).toMatchObject({ logs: 0, queuedDeliveries: 1 });
    expect(store.claimDelivery(deliveryId)).toMatchObject({ deliveryId, messageId: message.id });
  });
});

describe("createMessage", () => {
  it("queues one delivery per active Message webhook of the application, in the same transaction", () => {
    const app = store.createApplication("a");
    const other = store.createApplication("b");
    const channel = store.createChannel(app.id, "sms");
    const mk = (applicationId: string, active: boolean, eventType = "Message") =>
      store.createWebhook({ applicationId, endpoint: "http://127.0.0.1:1/", eventType, active });
    const wanted = [mk(app.id, true), mk(app.id, true)];
    mk(app.id, false);
    mk(app.id, true, "Status");
    mk(other.id, true);
    const message = store.createMessage({ applicationId: app.id, channel, to: "1", content: { text: "x" } });
    expect(message.webhookIds.sort()).toEqual(wanted.map((w) => w.id).sort());
    expect(store.stats()).toMatchObject({ messages: 1, queuedDeliveries: 2 });
  });
});

describe("the log list query", () => {
  const plan = (sql: string, ...params: unknown[]) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>)
      .map((r) => r.detail)
      .join("\n");

  it("walks webhook_logs_by_webhook in order (no sort step)", () => {
    const detail = plan(LIST_LOGS_SQL, "w", 20, 0);
    expect(detail).toContain("webhook_logs_by_webhook ");
    expect(detail).not.toContain("TEMP B-TREE");
  });

  it("with a status filter, walks webhook_logs_by_webhook_status in order", () => {
    const detail = plan(LIST_LOGS_BY_STATUS_SQL, "w", "Failed", 20, 0);
    expect(detail).toContain("webhook_logs_by_webhook_status");
    expect(detail).not.toContain("TEMP B-TREE");
  });

  it("every page equals the same slice of the whole newest-first list, whichever end it is read from", () => {
    const { webhook, message } = queuedDelivery();
    for (let i = 0; i < 101; i++) {
      const failed = i % 3 === 0;
      store.recordLog({
        webhookId: webhook.id,
        deliveryId: null,
        messageId: message.id,
        statusCode: failed ? 500 : 200,
        responseBody: String(i),
        status: failed ? "Failed" : "Success",
        sendAt: "2024-01-01T00:00:00.000Z",
        // Ties on purpose: three logs per timestamp, ordered among themselves by insertion.
        createdDate: new Date(Date.UTC(2024, 0, 1, 0, 0, Math.floor(i / 3))).toISOString(),
      });
    }
    const fresh = store.getWebhook(webhook.id)!;
    const everything = store.listLogs(fresh, { offset: 0, limit: 1000 }).rows.map((r) => r.responseBody);
    expect(everything).toEqual(Array.from({ length: 101 }, (_, i) => String(100 - i)));
    for (const status of [undefined, "Failed", "Success"] as const) {
      const all = everything.filter(
        (body) => status === undefined || (Number(body) % 3 === 0) === (status === "Failed"),
      );
      for (const limit of [1, 7, 50]) {
        for (let offset = 0; offset <= all.length + 2; offset++) {
          const page = store.listLogs(fresh, { offset, limit, status });
          expect(page.total).toBe(all.length);
          expect(
            page.rows.map((r) => r.responseBody),
            `${status} ${offset}/${limit}`,
          ).toEqual(all.slice(offset, offset + limit));
        }
      }
    }
  });

  it("pages 200,000 logs of one webhook quickly, newest first, totals without counting rows", () => {
    const app = store.createApplication("a");
    const webhook = store.createWebhook({
      applicationId: app.id,
      endpoint: "http://x/",
      eventType: "Message",
      active: true,
    });
    const rows = 200_000;
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
       INSERT INTO webhook_logs (id, webhook_id, status_code, response_body, status, send_at, created_date)
       SELECT printf('00000000-0000-4000-8000-%012d', i), ?, CASE WHEN i % 4 = 0 THEN 500 ELSE 200 END, 'b',
              CASE WHEN i % 4 = 0 THEN 'Failed' ELSE 'Success' END,
              strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + i / 2, 'unixepoch'),
              strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + i / 2, 'unixepoch')
       FROM n`,
    ).run(rows, webhook.id);
    db.prepare("UPDATE webhooks SET log_count = ?, number_of_errors = ? WHERE id = ?").run(
      rows,
      rows / 4,
      webhook.id,
    );
    const fresh = store.getWebhook(webhook.id)!;
    const started = performance.now();
    const first = store.listLogs(fresh, { offset: 0, limit: 50 });
    const failed = store.listLogs(fresh, { offset: 0, limit: 50, status: "Failed" });
    const last = store.listLogs(fresh, { offset: rows - 50, limit: 50 });
    const elapsed = performance.now() - started;
    expect(last.rows.at(-1)?.id).toBe("00000000-0000-4000-8000-000000000000");
    expect(first.total).toBe(rows);
    expect(failed.total).toBe(rows / 4);
    expect(failed.rows.every((r) => r.status === "Failed")).toBe(true);
    // Two logs share each second: the later insert (higher seq) comes first.
    expect(first.rows.slice(0, 2).map((r) => r.id)).toEqual([
      "00000000-0000-4000-8000-000000199999",
      "00000000-0000-4000-8000-000000199998",
    ]);
    expect(elapsed).toBeLessThan(150); // ~1 ms on an idle machine: the index is walked, nothing sorted
  });
});

describe("optionsFromEnv", () => {
  it("reads the SANDBOX_* variables, empty ones as unset", () => {
    expect(
      optionsFromEnv({
        SANDBOX_PORT: "0",
        SANDBOX_DB: ":memory:",
        SANDBOX_SEED: "none",
        SANDBOX_ADMIN_TOKEN: "",
        SANDBOX_DELIVERY_TIMEOUT_MS: "250",
      }),
    ).toMatchObject({
      port: 0,
      dbPath: ":memory:",
      seed: "none",
      adminToken: undefined,
      deliveryTimeoutMs: 250,
    });
  });

  it("refuses bad values with a message naming each variable", () => {
    expect(() =>
      optionsFromEnv({ SANDBOX_PORT: "70000", SANDBOX_SEED: "lots", SANDBOX_DELIVERY_TIMEOUT_MS: "soon" }),
    ).toThrow(
      /SANDBOX_PORT: SANDBOX_PORT must be at most 65535[\s\S]*SANDBOX_SEED: SANDBOX_SEED must be demo or none[\s\S]*SANDBOX_DELIVERY_TIMEOUT_MS/,
    );
  });
});
