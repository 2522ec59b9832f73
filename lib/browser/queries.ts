/** The browser's read of a webhook's newest deliveries: what the send form follows its test message in. */
import type { WebhookLog, WebhookLogPage } from "@/lib/domain/hub-schemas";
import { FOLLOW_LIMIT } from "@/lib/domain/follow";
import { apiRequest } from "@/lib/browser/api";

/** The newest FOLLOW_LIMIT deliveries of every status, as the hub lists them. */
export async function fetchNewestLogs(webhookId: string, signal?: AbortSignal): Promise<WebhookLog[]> {
  const path = `/api/webhooks/${encodeURIComponent(webhookId)}/logs?offset=0&limit=${FOLLOW_LIMIT}`;
  return (await apiRequest<WebhookLogPage>(path, { signal })).data;
}
