/**
 * Bulk-fills a (stopped) sandbox's SQLite file with webhook logs, in the sandbox's own schema
 * (lib/sandbox/db.ts): one transaction per webhook, one prepared statement, and the webhook's
 * counters (`log_count`, `number_of_errors`) set to match, as the sandbox keeps them.
 */
import { randomUUID } from "node:crypto";
import { openDatabase } from "../../lib/sandbox/db";

export interface LogFill {
  webhookId: string;
  count: number;
  /**
   * With a channel, each log gets its own message (so the console shows a message id per row);
   * without, logs have no message, as the sandbox's seeded history does.
   */
  messages?: { applicationId: string; channelId: string; channelKind: string };
}

/** The outcomes logs cycle through: mostly successes, and each failure of spec part 6. */
const OUTCOMES = [
  { statusCode: 200, status: "Success", body: '{"received":true}' },
  { statusCode: 200, status: "Success", body: '{"received":true,"queue":"inbound"}' },
  {
    statusCode: 500,
    status: "Failed",
    body: '{"error":"Internal Server Error","detail":"NullPointerException at OrderHandler.java:88"}',
  },
  { statusCode: 200, status: "Success", body: "OK" },
  { statusCode: 401, status: "Failed", body: '{"error":"invalid signature"}' },
  { statusCode: 200, status: "Success", body: '{"received":true}' },
  {
    statusCode: 404,
    status: "Failed",
    body: "<html><body><h1>404 Not Found</h1><p>Cannot POST /hooks/messages</p></body></html>",
  },
  { statusCode: 200, status: "Success", body: '{"ok":1}' },
  {
    statusCode: 0,
    status: "Failed",
    body: "[sandbox] No answer from the endpoint: connection refused (ECONNREFUSED).",
  },
  { statusCode: 201, status: "Success", body: "" },
] as const;

export const FAILED_SHARE = OUTCOMES.filter((o) => o.status === "Failed").length / OUTCOMES.length;

/** How many of `count` filled logs are Failed (the outcomes cycle from index 0). */
export function failedCount(count: number): number {
  const perCycle = OUTCOMES.filter((o) => o.status === "Failed").length;
  const whole = Math.floor(count / OUTCOMES.length) * perCycle;
  return whole + OUTCOMES.slice(0, count % OUTCOMES.length).filter((o) => o.status === "Failed").length;
}

export interface FillResult {
  rows: number;
  seconds: number;
}

/** Adds the logs to each webhook, newest one second before now, older ones a second apart. */
export function fillLogs(dbPath: string, fills: readonly LogFill[]): FillResult {
  const started = performance.now();
  const db = openDatabase(dbPath);
  try {
    const insertLog = db.prepare(
      `INSERT INTO webhook_logs (id, webhook_id, delivery_id, message_id, status_code, response_body, status, send_at, created_date)
       VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?)`,
    );
    const insertMessage = db.prepare(
      `INSERT INTO messages (id, application_id, channel_id, channel_kind, recipient, content, created_date)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const count = db.prepare(
      "UPDATE webhooks SET log_count = log_count + ?, number_of_errors = number_of_errors + ? WHERE id = ?",
    );
    let rows = 0;
    for (const fill of fills) {
      const first = Date.now() - (fill.count + 1) * 1000;
      db.transaction(() => {
        for (let i = 0; i < fill.count; i++) {
          const outcome = OUTCOMES[i % OUTCOMES.length] as (typeof OUTCOMES)[number];
          const sendAt = new Date(first + i * 1000).toISOString();
          const createdDate = new Date(first + i * 1000 + 7).toISOString();
          let messageId: string | null = null;
          if (fill.messages) {
            messageId = randomUUID();
            const m = fill.messages;
            insertMessage.run(
              messageId,
              m.applicationId,
              m.channelId,
              m.channelKind,
              "5511999990000",
              '{"text":"bench"}',
              sendAt,
            );
          }
          insertLog.run(
            randomUUID(),
            fill.webhookId,
            messageId,
            outcome.statusCode,
            outcome.body,
            outcome.status,
            sendAt,
            createdDate,
          );
        }
        const changed = count.run(fill.count, failedCount(fill.count), fill.webhookId).changes;
        if (changed !== 1) throw new Error(`no webhook ${fill.webhookId} in ${dbPath}`);
      })();
      rows += fill.count;
    }
    db.pragma("wal_checkpoint(TRUNCATE)");
    return { rows, seconds: (performance.now() - started) / 1000 };
  } finally {
    db.close();
  }
}
