import "server-only";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { LastSuccessAnswer } from "@/lib/domain/handover/last-success";
import { AppError } from "@/lib/server/app-error";
import { openHistory, type ScanCall } from "@/lib/server/history/scan";
import type { WebhookId } from "@/lib/server/hub/path-params";

/**
 * The last successful delivery before a given one, read through the scan (newest first, up to
 * `cap` logs), stopping at the first success past it: what the log dialog compares a failure
 * with. `lastSuccess` null with `partial` null means the history holds no success before it.
 */
export async function lastSuccessBefore(
  call: ScanCall,
  webhookId: WebhookId,
  logId: string,
  cap: number,
): Promise<LastSuccessAnswer> {
  const id = logId.toLowerCase();
  const reader = await openHistory(call, webhookId, { cap, retain: true });
  let seen = false;
  let lastSuccess: WebhookLog | null = null;
  try {
    reading: for (;;) {
      const batch = await reader.next();
      if (!batch) break;
      for (const log of batch) {
        if (!seen) seen = log.id.toLowerCase() === id;
        else if (log.status === "Success") {
          lastSuccess = log;
          break reading;
        }
      }
    }
  } finally {
    reader.close();
  }
  if (lastSuccess) return { lastSuccess, partial: null };
  const stop = reader.stop;
  if (stop.reason === "failed") throw stop.error;
  const newest = `the newest ${reader.read.toLocaleString("en-US")} of ${reader.total.toLocaleString("en-US")} deliveries`;
  if (!seen) {
    throw new AppError(
      "not_found",
      stop.reason === "cap"
        ? `Delivery ${logId} is not among ${newest} of this webhook (the scan's cap), so there is nothing to compare it with here.`
        : `Delivery ${logId} is not in this webhook's history. Check the log ID.`,
    );
  }
  return {
    lastSuccess: null,
    partial:
      stop.reason === "cap" ? `No success among ${newest} (the scan's cap); an older one may exist.` : null,
  };
}
