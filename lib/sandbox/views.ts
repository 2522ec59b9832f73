/**
 * The JSON shapes the sandbox answers with, built from store rows. Spec routes never show a
 * webhook's secret; the admin routes do (`webhookWithSecretJson`).
 */
import type { Channel, Webhook, WebhookLog } from "./store";

/** The webhook object of spec part 2, plus a few fields the spec does not show (as the real API has). */
export function webhookJson(webhook: Webhook) {
  return {
    id: webhook.id,
    endpoint: webhook.endpoint,
    eventType: webhook.eventType,
    numberOfErrors: webhook.numberOfErrors,
    active: webhook.active,
    description: webhook.description,
    createdDate: webhook.createdDate,
    updatedDate: webhook.updatedDate,
  };
}

export function webhookWithSecretJson(webhook: Webhook) {
  return { ...webhookJson(webhook), applicationId: webhook.applicationId, secret: webhook.secret };
}

/** The webhook log object of spec part 2, exactly its fields; `webhook` is the log's webhook. */
export function webhookLogJson(log: WebhookLog, webhook: Webhook) {
  return {
    id: log.id,
    webhookId: log.webhookId,
    statusCode: log.statusCode,
    responseBody: log.responseBody,
    status: log.status,
    sendAt: log.sendAt,
    createdDate: log.createdDate,
    ...(log.messageId ? { messageId: log.messageId } : {}),
    webhook: { id: webhook.id, endpoint: webhook.endpoint, eventType: webhook.eventType },
  };
}

export function channelJson(channel: Channel) {
  return { id: channel.id, kind: channel.kind, createdDate: channel.createdDate };
}
