import type { WebhookLog } from "@/lib/domain/hub-schemas";

/**
 * `GET /api/webhooks/{webhookId}/logs/{logId}/last-success`: the last successful delivery before
 * that one. `lastSuccess` null: none was found, and `partial` says why the reading stopped short
 * (the scan's cap); both null means the history holds no success before it.
 */
export interface LastSuccessAnswer {
  lastSuccess: WebhookLog | null;
  partial: string | null;
}
