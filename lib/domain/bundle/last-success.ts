import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { WebhookChanges } from "@/lib/domain/bundle/webhook-changes";
import type { HistorySource } from "@/lib/domain/history/answer-source";

/**
 * `GET /api/webhooks/{webhookId}/logs/{logId}/last-success`: the last successful delivery before
 * that one. `lastSuccess` null: none was found, and `partial` says why the reading stopped short
 * (the scan's cap); both null means the history holds no success before it. `changes`: the
 * webhook's own changes between the two (null without a success). `source`: the watch's store or
 * the scan.
 */
export interface LastSuccessAnswer {
  lastSuccess: WebhookLog | null;
  partial: string | null;
  changes: WebhookChanges | null;
  source: HistorySource;
}
