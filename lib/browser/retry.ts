/**
 * Retry of a delivery. The spec does not show the API's retry path yet (part 4.4), so the
 * console's route answers 501 `not_supported` and both Retry buttons (row and dialog) stay
 * disabled. The whole path is wired: button → `retryDelivery` → `POST /api/webhooks/{id}/logs/{logId}/retry`
 * → `retryWebhookLog` in lib/server/hub/client.ts. When the API shows the path: implement
 * `retryWebhookLog`, then flip `RETRY_SUPPORTED`.
 */
import { apiRequest } from "@/lib/browser/api";
import { webhookApiPath } from "@/lib/browser/queries";

export const RETRY_SUPPORTED = false;
export const RETRY_UNAVAILABLE_REASON = "The Messaging Hub API does not offer retry yet";

export function retryDelivery(webhookId: string, logId: string): Promise<unknown> {
  return apiRequest(`${webhookApiPath(webhookId)}/logs/${encodeURIComponent(logId)}/retry`, {
    method: "POST",
  });
}
