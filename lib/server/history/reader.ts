import "server-only";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { AppError } from "@/lib/server/app-error";
import type { SharedHistory } from "@/lib/server/history/shared-history";

/** Why a reader got fewer logs than the whole history, once `next()` returned null. */
export type ReaderStop = { reason: "complete" } | { reason: "cap" } | { reason: "failed"; error: AppError };

/** One reader of a shared history: the logs from the newest up to its cap, a batch at a time. */
export class HistoryReader {
  /** Logs handed to this reader so far. */
  read = 0;
  closed = false;
  /** Wakes a reader waiting for logs. */
  wake: (() => void) | null = null;

  constructor(
    private readonly history: SharedHistory,
    /** Index (in the history's log sequence) of the next log to hand out. */
    public cursor: number,
    /** This reader wants logs up to this index (exclusive). */
    public readonly until: number,
  ) {}

  /** The next logs, newest first; null when this reader has all it can get. */
  next(): Promise<WebhookLog[] | null> {
    return this.history.nextFor(this);
  }

  close(): void {
    this.history.closeReader(this);
  }

  get stop(): ReaderStop {
    if (this.history.failure) return { reason: "failed", error: this.history.failure };
    return this.history.reachedEnd(this.cursor) ? { reason: "complete" } : { reason: "cap" };
  }

  /** The hub's total when the history was anchored. */
  get total(): number {
    return this.history.anchorTotal ?? 0;
  }

  /** Deliveries that arrived after the history was anchored (they are not in it). */
  get arrivedMeanwhile(): number {
    return this.history.arrived;
  }
}
