import "server-only";
import type { WebhookLog, WebhookLogPage } from "@/lib/domain/hub-schemas";
import { AppError, isAppError } from "@/lib/server/app-error";
import { cancelledByClient } from "@/lib/server/hub/shared-reads";
import { offsetFor, PAGE_SIZE, placePage } from "@/lib/server/history/placement";
import { HistoryReader } from "@/lib/server/history/reader";
import { sleepUntil, withRetry } from "@/lib/server/history/retry";
import { LogWindow } from "@/lib/server/history/window";

/**
 * One webhook's history as read so far, shared by any number of readers: the driver that reads
 * the hub's pages (50 logs per call) into a LogWindow.
 *
 * Each page is placed by its own total (placement.ts), gaps are read again, and logs are
 * de-duplicated by id. Logs that arrived after the anchor are not part of it; they are counted
 * (`arrived`) and brought in by the next `refresh()`.
 *
 * The driver reads only what its readers still want (their cap, and a look-ahead past the
 * slowest reader), at most `concurrency` calls at once; it stops the moment the last reader
 * leaves, aborting the calls in flight. Each call follows the retry policy (retry.ts); a 429 also
 * pauses every call and halves the concurrency. What still fails stops the history, and readers
 * keep what was read before it ("partial").
 */

/** How far past its slowest reader the driver reads. */
const LOOKAHEAD = 1000;
/** Successful pages after which a concurrency lowered by a 429 grows by one again. */
const RECOVER_AFTER = 8;

/** Reads the page at `offset` (limit 50, no filter, newest first). */
export type PageReader = (offset: number, signal: AbortSignal) => Promise<WebhookLogPage>;

export interface SharedHistoryOptions {
  concurrency: number;
  /** Keep every log read (for the next question) while under `maxBytes`; else drop what readers consumed. */
  retain: boolean;
  maxBytes: number;
  /** Called once when a retained history grows past `maxBytes` and stops keeping its logs. */
  onStopRetaining?: () => void;
}

export class SharedHistory {
  private readonly window: LogWindow;
  /** Position of the next log to commit to the window, and logs read ahead of it. */
  private nextPosition = 0;
  private readonly pending = new Map<number, WebhookLog>();
  /** Start positions of the pages being read. */
  private readonly inFlight = new Set<number>();
  private endPosition = Infinity;
  anchorTotal: number | null = null;
  arrived = 0;
  failure: AppError | null = null;
  private readonly readers = new Set<HistoryReader>();
  private controller = new AbortController();
  private generation = 0;
  private concurrency: number;
  private pausedUntil = 0;
  private pauseTimer: NodeJS.Timeout | null = null;
  private sinceRecovery = 0;
  private readerOfPages: PageReader | null = null;
  private waitingForAnchor: Array<() => void> = [];
  /** Upstream calls made (answered or not), for tests and the bench. */
  calls = 0;
  lastUsed = Date.now();

  constructor(private readonly options: SharedHistoryOptions) {
    this.concurrency = options.concurrency;
    this.window = new LogWindow(options);
  }

  get size(): number {
    return this.window.size;
  }

  /** No reader and nothing in flight. */
  get idle(): boolean {
    return this.readers.size === 0 && this.inFlight.size === 0;
  }

  /** A new reader can still read this history from its newest log. */
  get joinable(): boolean {
    return this.window.start === 0 && this.window.retain && !this.failure;
  }

  reachedEnd(index: number): boolean {
    return this.nextPosition >= this.endPosition && index >= this.window.end;
  }

  /**
   * A reader of the first `cap` logs. `pages` reads with the reader's key (all readers of one
   * history share a key). Resolves once the history is anchored, or rejects with its failure.
   */
  async addReader(cap: number, pages: PageReader, signal: AbortSignal): Promise<HistoryReader> {
    if (this.window.start !== 0) throw new Error("this history dropped its newest logs; open a new one");
    const reader = new HistoryReader(this, 0, cap);
    this.readers.add(reader);
    this.readerOfPages = pages;
    this.lastUsed = Date.now();
    const onAbort = () => reader.close();
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) reader.close();
    this.pump();
    if (this.anchorTotal === null && !this.failure && !reader.closed) {
      await new Promise<void>((resolve) => {
        this.waitingForAnchor.push(resolve);
        reader.wake = resolve;
      });
      reader.wake = null;
    }
    if (this.anchorTotal === null || reader.closed) {
      reader.close();
      throw this.failure ?? cancelledByClient();
    }
    return reader;
  }

  /**
   * Brings an idle history up to date with one call: the newest page, whose logs before the
   * newest one known are prepended. False when too many arrived to link the two (or the page
   * does not agree with the window): the caller starts a new history. Throws what the hub
   * answered (a rotated key's 401, for one).
   */
  async refresh(pages: PageReader, signal: AbortSignal): Promise<boolean> {
    if (!this.joinable || this.anchorTotal === null) return false;
    const page = await withRetry(
      () => {
        this.calls++;
        return pages(0, signal);
      },
      { signal },
    );
    const total = page.pagination.total;
    const newest = this.window.newest;
    if (!newest) return false;
    const known = page.data.findIndex((log) => log.id === newest.id);
    if (known < 0 || total - this.anchorTotal !== known) return false;
    this.window.prepend(page.data.slice(0, known));
    const moved = [...this.pending].map(([position, log]) => [position + known, log] as const);
    this.pending.clear();
    for (const [position, log] of moved) this.pending.set(position, log);
    this.nextPosition += known;
    this.endPosition += known;
    this.anchorTotal = total;
    this.arrived = 0;
    this.lastUsed = Date.now();
    return true;
  }

  /** Called by readers; see HistoryReader.next. */
  async nextFor(reader: HistoryReader): Promise<WebhookLog[] | null> {
    for (;;) {
      if (reader.closed) return null;
      const until = Math.min(this.window.end, reader.until);
      if (until > reader.cursor) {
        const batch = this.window.slice(reader.cursor, until);
        reader.cursor += batch.length;
        reader.read += batch.length;
        this.dropConsumed();
        this.pump();
        return batch;
      }
      if (reader.cursor >= reader.until || this.failure || this.reachedEnd(reader.cursor)) return null;
      this.pump();
      await new Promise<void>((resolve) => (reader.wake = resolve));
      reader.wake = null;
    }
  }

  closeReader(reader: HistoryReader): void {
    if (reader.closed) return;
    reader.closed = true;
    reader.wake?.();
    this.readers.delete(reader);
    this.lastUsed = Date.now();
    if (this.readers.size === 0) this.stopDriver();
    else {
      this.dropConsumed();
      this.pump();
    }
  }

  /** Aborts every call in flight; what was read stays. */
  private stopDriver(): void {
    this.generation++;
    this.controller.abort();
    this.controller = new AbortController();
    this.inFlight.clear();
    this.readerOfPages = null;
    if (this.pauseTimer) clearTimeout(this.pauseTimer);
    this.pauseTimer = null;
    for (const resolve of this.waitingForAnchor.splice(0)) resolve();
  }

  private notify(): void {
    for (const reader of this.readers) reader.wake?.();
    if (this.anchorTotal !== null || this.failure)
      for (const resolve of this.waitingForAnchor.splice(0)) resolve();
  }

  private fail(error: AppError): void {
    if (this.failure) return;
    this.failure = error;
    this.generation++;
    this.controller.abort();
    this.inFlight.clear();
    this.notify();
  }

  /** The position up to which readers want logs read now. */
  private demand(): number {
    let limit = Infinity;
    for (const reader of this.readers) {
      if (reader.closed) continue;
      limit = Math.min(limit, reader.until, reader.cursor + LOOKAHEAD);
    }
    if (limit === Infinity) return 0;
    // Reader indices count logs kept; positions also count duplicates skipped.
    const skipped = this.nextPosition - this.window.end;
    return Math.min(limit + skipped, this.endPosition);
  }

  /** The first position neither read nor being read, or null when the driver is done for now. */
  private nextTarget(limit: number): number | null {
    let position = this.nextPosition;
    while (position < limit) {
      if (this.pending.has(position)) {
        position++;
        continue;
      }
      let covering: number | undefined;
      for (const start of this.inFlight)
        if (start <= position && position < start + PAGE_SIZE) covering = start;
      if (covering === undefined) return position;
      position = covering + PAGE_SIZE;
    }
    return null;
  }

  /** Starts the calls readers want now, unless paused by a 429. */
  private pump(): void {
    const pages = this.readerOfPages;
    if (!pages || this.failure || this.readers.size === 0) return;
    const now = Date.now();
    if (now < this.pausedUntil) {
      this.pauseTimer ??= setTimeout(() => {
        this.pauseTimer = null;
        this.pump();
      }, this.pausedUntil - now);
      return;
    }
    if (this.anchorTotal === null) {
      if (this.inFlight.size === 0) void this.readPage(0, pages);
      return;
    }
    const limit = this.demand();
    while (this.inFlight.size < this.concurrency) {
      const target = this.nextTarget(limit);
      if (target === null) break;
      void this.readPage(target, pages);
    }
  }

  /** A 429 asked for `seconds`: every call of this history waits, and fewer run at once for a while. */
  private waitOut = (seconds: number, signal: AbortSignal): Promise<void> => {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + seconds * 1000);
    this.concurrency = Math.max(1, Math.floor(this.concurrency / 2));
    this.sinceRecovery = 0;
    return sleepUntil(this.pausedUntil, signal);
  };

  private async readPage(position: number, pages: PageReader): Promise<void> {
    const generation = this.generation;
    const signal = this.controller.signal;
    this.inFlight.add(position);
    let offset = position;
    let page: WebhookLogPage;
    try {
      page = await withRetry(
        async () => {
          await sleepUntil(this.pausedUntil, signal);
          offset = offsetFor(position, this.arrived);
          this.calls++;
          return pages(offset, signal);
        },
        { signal, waitOut: this.waitOut },
      );
    } catch (error) {
      if (generation !== this.generation) return;
      return this.fail(
        isAppError(error)
          ? error
          : new AppError("internal", "Reading the history failed unexpectedly. Try again.", { cause: error }),
      );
    }
    if (generation !== this.generation) return;
    if (this.concurrency < this.options.concurrency && ++this.sinceRecovery >= RECOVER_AFTER) {
      this.concurrency++;
      this.sinceRecovery = 0;
    }
    this.inFlight.delete(position);
    this.place(offset, page);
    this.notify();
    this.pump();
  }

  /** Puts a page's logs at their positions and commits what is now contiguous to the window. */
  private place(offset: number, page: WebhookLogPage): void {
    if (this.anchorTotal === null) {
      this.anchorTotal = page.pagination.total;
      this.endPosition = page.pagination.total;
    }
    const { start, arrived, end } = placePage(
      { offset, count: page.data.length, total: page.pagination.total },
      this.anchorTotal,
    );
    this.arrived = Math.max(this.arrived, arrived);
    page.data.forEach((log, i) => {
      const position = start + i;
      if (position >= this.nextPosition && position < this.endPosition) this.pending.set(position, log);
    });
    if (end !== null) this.endPosition = Math.min(this.endPosition, Math.max(end, this.nextPosition));
    for (;;) {
      const log = this.pending.get(this.nextPosition);
      if (!log) break;
      this.pending.delete(this.nextPosition);
      this.nextPosition++;
      this.window.append(log);
    }
    this.dropConsumed();
  }

  /** What every reader has consumed, a window that does not retain forgets. */
  private dropConsumed(): void {
    let lowest = this.window.end;
    for (const reader of this.readers) lowest = Math.min(lowest, reader.cursor);
    this.window.dropBefore(lowest);
  }
}
