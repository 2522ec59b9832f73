/**
 * Every query of the sandbox, as prepared statements behind small typed methods.
 * Multi-row writes that must be atomic (a message and its deliveries; a log, its delivery's
 * completion and the webhook's counters) are one transaction each.
 */
import { randomUUID } from "node:crypto";
import type { LogStatus } from "../domain/api-limits";
import type { Db } from "./db";
import { generateApiKey, generateWebhookSecret, hashApiKey } from "./keys";

export interface Application {
  id: string;
  name: string;
  createdDate: string;
}

export interface Channel {
  id: string;
  applicationId: string;
  kind: string;
  createdDate: string;
}

export interface Webhook {
  id: string;
  applicationId: string;
  endpoint: string;
  eventType: string;
  active: boolean;
  secret: string;
  description: string | null;
  numberOfErrors: number;
  logCount: number;
  demoLabel: string | null;
  demoReceiver: string | null;
  createdDate: string;
  updatedDate: string;
}

export interface WebhookLog {
  id: string;
  webhookId: string;
  statusCode: number;
  responseBody: string;
  status: LogStatus;
  sendAt: string;
  createdDate: string;
  messageId: string | null;
}

export interface NewWebhook {
  applicationId: string;
  endpoint: string;
  eventType: string;
  active: boolean;
  secret?: string;
  description?: string | null;
  demoLabel?: string | null;
  demoReceiver?: string | null;
  id?: string;
  createdDate?: string;
}

export interface NewLog {
  webhookId: string;
  deliveryId: number | null;
  messageId: string | null;
  statusCode: number;
  responseBody: string;
  status: LogStatus;
  sendAt: string;
  createdDate: string;
  id?: string;
}

export interface NewMessage {
  applicationId: string;
  channel: Channel;
  to: string;
  /** The message's `content` object as sent (text plus any other fields). */
  content: Record<string, unknown>;
  id?: string;
  createdDate?: string;
  /** false for seeded history: store the message without queueing deliveries. */
  queueDeliveries?: boolean;
}

/** What a delivery attempt needs: the delivery, its message and where to send it. */
export interface DeliveryJob {
  deliveryId: number;
  webhookId: string;
  endpoint: string;
  secret: string;
  eventType: string;
  messageId: string;
  channelId: string;
  channelKind: string;
  to: string;
  content: Record<string, unknown>;
  messageCreatedDate: string;
}

export interface Stats {
  applications: number;
  messages: number;
  queuedDeliveries: number;
  doneDeliveries: number;
  logs: number;
}

type WebhookDbRow = Omit<Webhook, "active"> & { active: 0 | 1 };
type DeliveryDbRow = Omit<DeliveryJob, "content"> & { content: string; state: "queued" | "done" };

const now = () => new Date().toISOString();

const WEBHOOK_COLUMNS = `id, application_id AS applicationId, endpoint, event_type AS eventType, active, secret,
  description, number_of_errors AS numberOfErrors, log_count AS logCount, demo_label AS demoLabel,
  demo_receiver AS demoReceiver, created_date AS createdDate, updated_date AS updatedDate`;

const LOG_COLUMNS = `id, webhook_id AS webhookId, status_code AS statusCode, response_body AS responseBody,
  status, send_at AS sendAt, created_date AS createdDate, message_id AS messageId`;

/**
 * A page of one webhook's logs in index order: newest first (DESC), or oldest first (ASC, used
 * for pages nearer the end). Walks webhook_logs_by_webhook(_status): no sort step, and only
 * the index is read for the rows OFFSET skips.
 */
const listLogsSql = (filter: string, direction: "DESC" | "ASC") =>
  `SELECT ${LOG_COLUMNS} FROM webhook_logs WHERE webhook_id = ?${filter}
   ORDER BY created_date ${direction}, seq ${direction} LIMIT ? OFFSET ?`;
export const LIST_LOGS_SQL = listLogsSql("", "DESC");
export const LIST_LOGS_BY_STATUS_SQL = listLogsSql(" AND status = ?", "DESC");

function toWebhook(row: WebhookDbRow): Webhook {
  return { ...row, active: row.active === 1 };
}

function parseContent(json: string): Record<string, unknown> {
  const value: unknown = JSON.parse(json);
  return typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : {};
}

/** The sandbox's queries, prepared once against `db`. */
export type Store = ReturnType<typeof createStore>;

export function createStore(db: Db) {
  const sql = prepareStatements(db);

  // ---- meta ---------------------------------------------------------------------------------

  const getMeta = (key: string): string | undefined => sql.getMeta.get(key)?.value;
  const setMeta = (key: string, value: string): void => void sql.setMeta.run(key, value);

  // ---- applications and keys ----------------------------------------------------------------

  /** Creates an application; the key is returned here and never again (only its hash is stored). */
  function createApplication(name: string, apiKey: string = generateApiKey(), id: string = randomUUID()) {
    const createdDate = now();
    sql.insertApplication.run(id, name, hashApiKey(apiKey), createdDate);
    return { id, name, apiKey, createdDate };
  }

  /** Replaces the application's key; the old one stops working at once. Undefined when no such application. */
  function rotateApiKey(applicationId: string): string | undefined {
    const apiKey = generateApiKey();
    return sql.setKey.run(hashApiKey(apiKey), applicationId).changes === 1 ? apiKey : undefined;
  }

  // ---- channels -----------------------------------------------------------------------------

  function createChannel(applicationId: string, kind: string, id: string = randomUUID()): Channel {
    const channel = { id, applicationId, kind, createdDate: now() };
    sql.insertChannel.run(channel.id, applicationId, kind, channel.createdDate);
    return channel;
  }

  // ---- webhooks -----------------------------------------------------------------------------

  function getWebhook(id: string): Webhook | undefined {
    const row = sql.getWebhook.get(id);
    return row && toWebhook(row);
  }

  function createWebhook(input: NewWebhook): Webhook {
    const id = input.id ?? randomUUID();
    sql.insertWebhook.run({
      id,
      applicationId: input.applicationId,
      endpoint: input.endpoint,
      eventType: input.eventType,
      active: input.active ? 1 : 0,
      secret: input.secret ?? generateWebhookSecret(),
      description: input.description ?? null,
      demoLabel: input.demoLabel ?? null,
      demoReceiver: input.demoReceiver ?? null,
      createdDate: input.createdDate ?? now(),
    });
    const webhook = getWebhook(id);
    if (!webhook) throw new Error(`webhook ${id} was not stored`);
    return webhook;
  }

  const listWebhooks = (applicationId: string): Webhook[] =>
    sql.listWebhooks.all(applicationId).map(toWebhook);

  /** Changes `active` and/or `endpoint`. A hand-set endpoint is no longer rewritten as a demo receiver. */
  function updateWebhook(id: string, patch: { active?: boolean; endpoint?: string }): Webhook | undefined {
    const active = patch.active === undefined ? null : patch.active ? 1 : 0;
    const result = sql.updateWebhook.run({
      id,
      active,
      endpoint: patch.endpoint ?? null,
      updatedDate: now(),
    });
    return result.changes === 1 ? getWebhook(id) : undefined;
  }

  /** Points every demo webhook of the application at its receiver route: `receiversUrl` followed by the receiver's name. */
  const rewriteDemoEndpoints = (applicationId: string, receiversUrl: string): void =>
    void sql.rewriteDemoEndpoints.run(receiversUrl, applicationId);

  // ---- webhook logs -------------------------------------------------------------------------

  /**
   * One page of a webhook's logs, newest first, and the total matching the filter.
   * The total comes from the counters kept on the webhook row, so it costs nothing on 1M logs;
   * knowing it, a page in the older half is read from the oldest end, so OFFSET never skips
   * more than half the logs.
   */
  function listLogs(webhook: Webhook, page: { offset: number; limit: number; status?: LogStatus }) {
    const total =
      page.status === "Failed"
        ? webhook.numberOfErrors
        : page.status === "Success"
          ? webhook.logCount - webhook.numberOfErrors
          : webhook.logCount;
    const filter = page.status ? [page.status] : [];
    const fromOldest = total - page.offset - page.limit;
    if (fromOldest <= page.offset) {
      const limit = Math.min(page.limit, total - page.offset);
      if (limit <= 0) return { rows: [], total };
      const statement = page.status ? sql.listLogsByStatusAsc : sql.listLogsAsc;
      return { rows: statement.all(webhook.id, ...filter, limit, Math.max(0, fromOldest)).reverse(), total };
    }
    const statement = page.status ? sql.listLogsByStatus : sql.listLogs;
    return { rows: statement.all(webhook.id, ...filter, page.limit, page.offset), total };
  }

  /**
   * Writes a log and counts it on its webhook (`numberOfErrors + 1` when Failed), and marks its
   * delivery done, all in one transaction. A delivery already logged is left as it is: returns false.
   */
  const recordLog = db.transaction((log: NewLog): boolean => {
    const inserted = sql.insertLog.run({ ...log, id: log.id ?? randomUUID() }).changes === 1;
    if (inserted) sql.countLog.run({ webhookId: log.webhookId, failed: log.status === "Failed" ? 1 : 0 });
    if (log.deliveryId !== null) sql.completeDelivery.run(log.deliveryId);
    return inserted;
  });

  // ---- messages and deliveries --------------------------------------------------------------

  /**
   * Stores a message and, in the same transaction, queues one delivery for each active `Message`
   * webhook of its application. Returns the message id and the webhooks that got a delivery.
   */
  const createMessage = db.transaction((input: NewMessage) => {
    const id = input.id ?? randomUUID();
    const createdDate = input.createdDate ?? now();
    sql.insertMessage.run({
      id,
      applicationId: input.applicationId,
      channelId: input.channel.id,
      channelKind: input.channel.kind,
      to: input.to,
      content: JSON.stringify(input.content),
      createdDate,
    });
    const webhookIds =
      input.queueDeliveries === false
        ? []
        : sql.queueDeliveries.all(id, createdDate, input.applicationId).map((r) => r.webhookId);
    return { id, createdDate, webhookIds };
  });

  /** The delivery with what is needed to send it, counting the attempt; undefined when no longer queued. */
  function claimDelivery(deliveryId: number): DeliveryJob | undefined {
    const row = sql.deliveryJob.get(deliveryId);
    if (!row) return undefined;
    const { state, content, ...job } = row;
    if (state !== "queued") return undefined;
    sql.countAttempt.run(deliveryId);
    return { ...job, content: parseContent(content) };
  }

  return {
    db,
    getMeta,
    setMeta,
    createApplication,
    getApplication: (id: string): Application | undefined => sql.getApplication.get(id),
    /** The application whose key this is, if any. */
    applicationIdForKey: (apiKey: string): string | undefined =>
      sql.applicationByKey.get(hashApiKey(apiKey))?.id,
    rotateApiKey,
    isEmpty: (): boolean => (sql.countApplications.get()?.n ?? 0) === 0,
    createChannel,
    getChannel: (id: string): Channel | undefined => sql.getChannel.get(id),
    listChannels: (applicationId: string): Channel[] => sql.listChannels.all(applicationId),
    createWebhook,
    getWebhook,
    listWebhooks,
    updateWebhook,
    rewriteDemoEndpoints,
    listLogs,
    recordLog,
    createMessage,
    /** Webhooks that have at least one queued delivery (used at start to resume after a crash). */
    queuedWebhookIds: (): string[] => sql.queuedWebhookIds.all().map((r) => r.webhookId),
    /** The next queued delivery ids of one webhook after `afterId`, oldest first. */
    queuedDeliveryIds: (webhookId: string, afterId: number, limit: number): number[] =>
      sql.queuedDeliveryIds.all(webhookId, afterId, limit).map((r) => r.id),
    claimDelivery,
    stats: (): Stats => {
      const stats = sql.stats.get();
      if (!stats) throw new Error("stats query returned nothing");
      return stats;
    },
  };
}

function prepareStatements(db: Db) {
  return {
    getMeta: db.prepare<[string], { value: string }>("SELECT value FROM meta WHERE key = ?"),
    setMeta: db.prepare<[string, string]>(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    ),

    insertApplication: db.prepare<[string, string, string, string]>(
      "INSERT INTO applications (id, name, api_key_hash, created_date) VALUES (?, ?, ?, ?)",
    ),
    getApplication: db.prepare<[string], Application>(
      "SELECT id, name, created_date AS createdDate FROM applications WHERE id = ?",
    ),
    applicationByKey: db.prepare<[string], { id: string }>(
      "SELECT id FROM applications WHERE api_key_hash = ?",
    ),
    setKey: db.prepare<[string, string]>("UPDATE applications SET api_key_hash = ? WHERE id = ?"),
    countApplications: db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM applications"),

    insertChannel: db.prepare<[string, string, string, string]>(
      "INSERT INTO channels (id, application_id, kind, created_date) VALUES (?, ?, ?, ?)",
    ),
    getChannel: db.prepare<[string], Channel>(
      "SELECT id, application_id AS applicationId, kind, created_date AS createdDate FROM channels WHERE id = ?",
    ),
    listChannels: db.prepare<[string], Channel>(
      `SELECT id, application_id AS applicationId, kind, created_date AS createdDate
       FROM channels WHERE application_id = ? ORDER BY created_date, id`,
    ),

    insertWebhook: db.prepare<{
      id: string;
      applicationId: string;
      endpoint: string;
      eventType: string;
      active: 0 | 1;
      secret: string;
      description: string | null;
      demoLabel: string | null;
      demoReceiver: string | null;
      createdDate: string;
    }>(
      `INSERT INTO webhooks (id, application_id, endpoint, event_type, active, secret, description,
         demo_label, demo_receiver, created_date, updated_date)
       VALUES (@id, @applicationId, @endpoint, @eventType, @active, @secret, @description,
         @demoLabel, @demoReceiver, @createdDate, @createdDate)`,
    ),
    getWebhook: db.prepare<[string], WebhookDbRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?`),
    listWebhooks: db.prepare<[string], WebhookDbRow>(
      `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE application_id = ? ORDER BY created_date, id`,
    ),
    updateWebhook: db.prepare<{
      id: string;
      active: 0 | 1 | null;
      endpoint: string | null;
      updatedDate: string;
    }>(
      `UPDATE webhooks SET
         active = COALESCE(@active, active),
         endpoint = COALESCE(@endpoint, endpoint),
         demo_receiver = CASE WHEN @endpoint IS NULL THEN demo_receiver END,
         updated_date = @updatedDate
       WHERE id = @id`,
    ),
    rewriteDemoEndpoints: db.prepare<[string, string]>(
      "UPDATE webhooks SET endpoint = ? || demo_receiver WHERE application_id = ? AND demo_receiver IS NOT NULL",
    ),

    listLogs: db.prepare<unknown[], WebhookLog>(LIST_LOGS_SQL),
    listLogsByStatus: db.prepare<unknown[], WebhookLog>(LIST_LOGS_BY_STATUS_SQL),
    listLogsAsc: db.prepare<unknown[], WebhookLog>(listLogsSql("", "ASC")),
    listLogsByStatusAsc: db.prepare<unknown[], WebhookLog>(listLogsSql(" AND status = ?", "ASC")),
    insertLog: db.prepare<NewLog & { id: string }>(
      `INSERT INTO webhook_logs (id, webhook_id, delivery_id, message_id, status_code, response_body, status, send_at, created_date)
       VALUES (@id, @webhookId, @deliveryId, @messageId, @statusCode, @responseBody, @status, @sendAt, @createdDate)
       ON CONFLICT (delivery_id) DO NOTHING`,
    ),
    countLog: db.prepare<{ webhookId: string; failed: 0 | 1 }>(
      "UPDATE webhooks SET log_count = log_count + 1, number_of_errors = number_of_errors + @failed WHERE id = @webhookId",
    ),
    completeDelivery: db.prepare<[number]>("UPDATE deliveries SET state = 'done' WHERE id = ?"),

    insertMessage: db.prepare<{
      id: string;
      applicationId: string;
      channelId: string;
      channelKind: string;
      to: string;
      content: string;
      createdDate: string;
    }>(
      `INSERT INTO messages (id, application_id, channel_id, channel_kind, recipient, content, created_date)
       VALUES (@id, @applicationId, @channelId, @channelKind, @to, @content, @createdDate)`,
    ),
    queueDeliveries: db.prepare<[string, string, string], { webhookId: string }>(
      `INSERT INTO deliveries (message_id, webhook_id, created_date)
       SELECT ?, id, ? FROM webhooks WHERE application_id = ? AND active = 1 AND event_type = 'Message'
       ORDER BY created_date, id
       RETURNING webhook_id AS webhookId`,
    ),
    queuedWebhookIds: db.prepare<[], { webhookId: string }>(
      "SELECT DISTINCT webhook_id AS webhookId FROM deliveries WHERE state = 'queued'",
    ),
    queuedDeliveryIds: db.prepare<[string, number, number], { id: number }>(
      "SELECT id FROM deliveries WHERE state = 'queued' AND webhook_id = ? AND id > ? ORDER BY id LIMIT ?",
    ),
    deliveryJob: db.prepare<[number], DeliveryDbRow>(
      `SELECT d.id AS deliveryId, d.state, w.id AS webhookId, w.endpoint, w.secret, w.event_type AS eventType,
         m.id AS messageId, m.channel_id AS channelId, m.channel_kind AS channelKind, m.recipient AS "to",
         m.content, m.created_date AS messageCreatedDate
       FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN messages m ON m.id = d.message_id
       WHERE d.id = ?`,
    ),
    countAttempt: db.prepare<[number]>("UPDATE deliveries SET attempts = attempts + 1 WHERE id = ?"),

    stats: db.prepare<[], Stats>(
      `SELECT (SELECT COUNT(*) FROM applications) AS applications,
              (SELECT COUNT(*) FROM messages) AS messages,
              (SELECT COUNT(*) FROM deliveries WHERE state = 'queued') AS queuedDeliveries,
              (SELECT COUNT(*) FROM deliveries WHERE state = 'done') AS doneDeliveries,
              (SELECT COUNT(*) FROM webhook_logs) AS logs`,
    ),
  };
}
