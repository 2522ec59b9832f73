/**
 * Retry of a delivery. The spec does not show the API's retry path yet (part 4.4), so the
 * console's route answers 501 `not_supported` and the buttons stay disabled. When the API
 * shows the path: implement the route handler, then flip `RETRY_SUPPORTED`.
 */
import { apiRequest } from "@/lib/client/api";
import { webhookApiPath } from "@/lib/logs/queries";

export const RETRY_SUPPORTED = false;
export const RETRY_UNAVAILABLE_REASON = "The Messaging Hub API does not offer retry yet";

export function retryDelivery(webhookId: string, logId: string): Promise<unknown> {
  return apiRequest(`${webhookApiPath(webhookId)}/logs/${encodeURIComponent(logId)}/retry`, { method: "POST" });
}
