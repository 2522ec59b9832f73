import "server-only";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { LastSuccessAnswer } from "@/lib/domain/bundle/last-success";
import { changesBetween, NOT_WATCHED, type WebhookChanges } from "@/lib/domain/bundle/webhook-changes";
import { AppError, isAppError } from "@/lib/server/app-error";
import { visitHistory, type HistoryCall } from "@/lib/server/history/answer";
import type { WebhookId } from "@/lib/server/hub/path-params";
import { timeline } from "@/lib/server/history/questions";
import { getWatch } from "@/lib/server/watch/watches";
import { sharedStoreContext, unavailable } from "@/lib/server/store/context";

/** Reads newest first until the given delivery, then on to the first success older than it. */
class LastSuccessVisitor {
  failed: WebhookLog | null = null;
  lastSuccess: WebhookLog | null = null;

  constructor(private readonly logId: string) {}

  add(log: WebhookLog): boolean {
    if (!this.failed) {
      if (log.id.toLowerCase() === this.logId) this.failed = log;
      return true;
    }
    if (log.status !== "Success") return true;
    this.lastSuccess = log;
    return false;
  }

  /** The answer shows the last success's body (the dialog has the failure's own). */
  shown(): WebhookLog[] | null {
    if (!this.failed) return null;
    return this.lastSuccess ? [this.lastSuccess] : [];
  }
}

/**
 * The last successful delivery before a given one, from the console's copy of the webhook's
 * history, read further back (newest first, up to `cap` logs) until the first success past it:
 * what the log dialog compares a failure with. `lastSuccess` null with `partial` null means the
 * history holds no success before it; `failedAt` is the given delivery's time.
 */
export async function lastSuccessBefore(
  call: HistoryCall,
  webhookId: WebhookId,
  logId: string,
  cap: number,
): Promise<Omit<LastSuccessAnswer, "changes"> & { failedAt: string | null }> {
  const { visitor, stop, source } = await visitHistory(
    call,
    webhookId,
    cap,
    () => new LastSuccessVisitor(logId.toLowerCase()),
  );
  const failedAt = visitor.failed?.sendAt ?? null;
  if (visitor.lastSuccess) return { lastSuccess: visitor.lastSuccess, partial: null, failedAt, source };
  const newest =
    stop.reason === "cap"
      ? `the newest ${stop.read.toLocaleString("en-US")} of ${stop.total.toLocaleString("en-US")} deliveries`
      : null;
  if (failedAt === null) {
    throw new AppError(
      "not_found",
      newest
        ? `Delivery ${logId} is not among ${newest} of this webhook (the cap), so there is nothing to compare it with here.`
        : `Delivery ${logId} is not in this webhook's history. Check the log ID.`,
    );
  }
  return {
    lastSuccess: null,
    failedAt,
    partial: newest ? `No success among ${newest} (the cap); an older one may exist.` : null,
    source,
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
    const ctx = await sharedStoreContext().catch((error: unknown) => {
      throw unavailable(error);
    });
    const watch = await getWatch(ctx, [appId], webhookId);
    if (!watch) return NOT_WATCHED;
    const events = await timeline(ctx.db, webhookId, {
      from: Date.parse(between.from),
      to: Date.parse(between.to),
      limit: CHANGES_READ,
    });
    return changesBetween(events, watch.createdAt);
  } catch (error) {
    if (!isAppError(error) || error.code === "store_unavailable") {
      return {
        known: false,
        why: "The watch's database is not answering, so the webhook's changes are not known right now.",
      };
    }
    throw error;
  }
}
