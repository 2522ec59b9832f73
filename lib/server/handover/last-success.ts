import "server-only";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { LastSuccessAnswer } from "@/lib/domain/handover/last-success";
import { changesBetween, NOT_WATCHED, type WebhookChanges } from "@/lib/domain/handover/webhook-changes";
import { AppError, isAppError } from "@/lib/server/app-error";
import { openHistory, type ScanCall } from "@/lib/server/history/scan";
import type { WebhookId } from "@/lib/server/hub/path-params";
import { watchStore } from "@/lib/server/watch/store";

/**
 * The last successful delivery before a given one, read through the scan (newest first, up to
 * `cap` logs), stopping at the first success past it: what the log dialog compares a failure
 * with. `lastSuccess` null with `partial` null means the history holds no success before it;
 * `failedAt` is the given delivery's time.
 */
export async function lastSuccessBefore(
  call: ScanCall,
  webhookId: WebhookId,
  logId: string,
  cap: number,
): Promise<Omit<LastSuccessAnswer, "changes"> & { failedAt: string | null }> {
  const id = logId.toLowerCase();
  const reader = await openHistory(call, webhookId, { cap, retain: true });
  let failedAt: string | null = null;
  let lastSuccess: WebhookLog | null = null;
  try {
    reading: for (;;) {
      const batch = await reader.next();
      if (!batch) break;
      for (const log of batch) {
        if (failedAt === null) failedAt = log.id.toLowerCase() === id ? log.sendAt : null;
        else if (log.status === "Success") {
          lastSuccess = log;
          break reading;
        }
      }
    }
  } finally {
    reader.close();
  }
  if (lastSuccess) return { lastSuccess, partial: null, failedAt };
  const stop = reader.stop;
  if (stop.reason === "failed") throw stop.error;
  const newest = `the newest ${reader.read.toLocaleString("en-US")} of ${reader.total.toLocaleString("en-US")} deliveries`;
  if (failedAt === null) {
    throw new AppError(
      "not_found",
      stop.reason === "cap"
        ? `Delivery ${logId} is not among ${newest} of this webhook (the scan's cap), so there is nothing to compare it with here.`
        : `Delivery ${logId} is not in this webhook's history. Check the log ID.`,
    );
  }
  return {
    lastSuccess: null,
    failedAt,
    partial:
      stop.reason === "cap" ? `No success among ${newest} (the scan's cap); an older one may exist.` : null,
  };
}

/** Timeline events read between two deliveries: far more than polls usually see between them. */
const CHANGES_READ = 1000;

/**
 * The webhook's own changes between two times (ISO), from the timeline of the watch `appId` has
 * of it; not known when it is not watched, or the store does not answer (the comparison goes on).
 */
export async function webhookChanges(
  appId: string,
  webhookId: WebhookId,
  between: { from: string; to: string },
): Promise<WebhookChanges> {
  try {
    const store = await watchStore();
    const watch = await store.getWatch([appId], webhookId);
    if (!watch) return NOT_WATCHED;
    const events = await store.timeline(webhookId, {
      from: Date.parse(between.from),
      to: Date.parse(between.to),
      limit: CHANGES_READ,
    });
    return changesBetween(events, watch.createdAt);
  } catch (error) {
    if (isAppError(error) && error.code === "store_unavailable") {
      return {
        known: false,
        why: "The watch's database is not answering, so the webhook's changes are not known right now.",
      };
    }
    throw error;
  }
}
