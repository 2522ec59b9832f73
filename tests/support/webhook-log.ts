/**
 * TEST ONLY. A webhook log as the hub lists it: sent at `at`, created 10 ms later, a success for
 * a 2xx status code and a failure otherwise.
 */
import type { WebhookLog } from "@/lib/domain/hub-schemas";

export function webhookLog(
  webhookId: string,
  at: number,
  statusCode: number,
  body: string,
  ids: { id: string; messageId: string },
): WebhookLog {
  return {
    ...ids,
    webhookId,
    statusCode,
    responseBody: body,
    status: statusCode >= 200 && statusCode < 300 ? "Success" : "Failed",
    sendAt: new Date(at).toISOString(),
    createdDate: new Date(at + 10).toISOString(),
    webhook: { id: webhookId, endpoint: "https://example.test", eventType: "Message" },
  };
}
