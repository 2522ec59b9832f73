import "server-only";
import type { WebhookLog, WebhookLogPage } from "@/lib/domain/hub-schemas";
import { AppError, isAppError } from "@/lib/server/app-error";

/**
 * A window on one webhook's history: its logs newest first, read from the hub's pages (50 per
 * call) by a driver that any number of readers share.
 *
 * Positions are counted from the newest log when the window was anchored (its first page).
 * New deliveries arriving meanwhile push every offset down: a page read at `offset` while the
 * hub's total has grown by `s` holds positions `offset - s …`, so each page is placed by its own
 * total, pages are asked for at `position + (arrivals known so far)` (arrivals only grow, so a
 * page can start early, never late), gaps are read again, and logs are de-duplicated by id.
 * Logs that arrived after the anchor are not part of the window; they are counted
 * (`arrivedMeanwhile`) and brought in by the next `refresh()`.
 *
 * The driver reads only what its readers still want (their cap, and a look-ahead past the
 * slowest reader), at most `concurrency` calls at once; it stops the moment the last reader
 * leaves, aborting the calls in flight. A 429 pauses every call for Retry-After and halves the
 * concurrency; 5xx, timeouts and unreachable hubs are retried with backoff; what still fails
 * stops the window, and readers keep what was read before it ("partial").
 */

export const PAGE_SIZE = 50;
/** How far past its slowest reader the driver reads. */
const LOOKAHEAD = 1000;
/** Attempts after the first for a 5xx, a timeout or an unreachable hub. */
const RETRIES = 3;
const BACKOFF_MS = 250;
/** 429s in a row before the scan gives up, and the longest Retry-After it waits for. */
const RATE_LIMIT_STRIKES = 6;
const RETRY_AFTER_MAX_SECONDS = 30;
/** Successful pages after which a concurrency lowered by a 429 grows by one again. */
const RECOVER_AFTER = 8;

/** Reads the page at `offset` (limit 50, no filter, newest first). */
export type PageReader = (offset: number, signal: AbortSignal) => Promise<WebhookLogPage>;

export interface WindowOptions {
  concurrency: number;
  /** Keep every log read (for the next question) while under `maxBytes`; else drop what readers consumed. */
  retain: boolean;
  maxBytes: number;
  /** Called once when a retained window grows past `maxBytes` and stops keeping its logs. */
  onStopRetaining?: () => void;
}

/** Rough memory of a parsed log: its strings plus object overhead. */
function sizeOf(log: WebhookLog): number {
  return 600 + log.responseBody.length + log.webhook.endpoint.length;
}

function isTransient(error: AppError): boolean {
  return (
    error.code === "upstream_error" ||
    error.code === "upstream_timeout" ||
    error.code === "upstream_unreachable"
  );
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * One call with the driver's patience, for the calls made outside it (an idle window's refresh):
 * a 429 waits its Retry-After, 5xx and timeouts back off, a few times each; anything else throws.
 */
async function patiently<T>(read: () => Promise<T>, signal: AbortSignal): Promise<T> {
  let strikes = 0;
  let attempts = 0;
  for (;;) {
    try {
      return await read();
    } catch (error) {
      if (!isAppError(error) || signal.aborted) throw error;
      const seconds = error.retryAfter ?? 5;
      if (
        error.code === "rate_limited" &&
        ++strikes <= RATE_LIMIT_STRIKES &&
        seconds <= RETRY_AFTER_MAX_SECONDS
      ) {
        await sleep(seconds * 1000, signal);
      } else if (isTransient(error) && attempts < RETRIES) {
        attempts++;
        await sleep(BACKOFF_MS * 2 ** (attempts - 1), signal);
      } else {
        throw error;
      }
    }
  }
}

export class WindowReader {
  /** Logs handed to this reader so far. */
  read = 0;
  closed = false;
  /** Wakes a reader waiting for logs. */
  wake: (() => void) | null = null;

  constructor(
    private readonly window: HistoryWindow,
    /** Index (in the window's log sequence) of the next log to hand out. */
    public cursor: number,
    /** This reader wants logs up to this index (exclusive). */
    public readonly until: number,
  ) {}

  /** The next logs, newest first; null when this reader has all it can get. */
  next(): Promise<WebhookLog[] | null> {
    return this.window.nextFor(this);
  }

  close(): void {
    this.window.closeReader(this);
  }

  /** Why this reader got fewer logs than the whole history, once `next()` returned null. */
  get stop(): { reason: "complete" } | { reason: "cap" } | { reason: "failed"; error: AppError } {
    if (this.window.failure) return { reason: "failed", error: this.window.failure };
    return this.window.reachedEnd(this.cursor) ? { reason: "complete" } : { reason: "cap" };
  }

  /** The hub's total when the window was anchored. */
  get total(): number {
    return this.window.anchorTotal ?? 0;
  }

  /** Deliveries that arrived after the window was anchored (they are not in it). */
  get arrivedMeanwhile(): number {
    return this.window.arrived;
  }
}

export class HistoryWindow {
  /** The logs read, newest first; `logs[i]` is index `base + i` of the sequence. */
  private logs: WebhookLog[] = [];
  private base = 0;
  private readonly ids = new Set<string>();
  private bytes = 0;
  /** Position (anchor coordinates) of the next log to commit, and logs read ahead of it. */
  private nextPosition = 0;
  private readonly pending = new Map<number, WebhookLog>();
  /** Start positions of the pages being read. */
  private readonly inFlight = new Set<number>();
  private endPosition = Infinity;
  anchorTotal: number | null = null;
  arrived = 0;
  failure: AppError | null = null;
  private readonly readers = new Set<WindowReader>();
  private controller = new AbortController();
  private generation = 0;
  private concurrency: number;
  private pausedUntil = 0;
  private pauseTimer: NodeJS.Timeout | null = null;
  private strikes = 0;
  private sinceRecovery = 0;
  private readerOfPages: PageReader | null = null;
  private waitingForAnchor: Array<() => void> = [];
  /** Upstream calls made (answered or not), for tests and the bench. */
  calls = 0;
  lastUsed = Date.now();
  retain: boolean;

  constructor(private readonly options: WindowOptions) {
    this.concurrency = options.concurrency;
    this.retain = options.retain;
  }

  get size(): number {
    return this.bytes;
  }

  /** No reader and nothing in flight. */
  get idle(): boolean {
    return this.readers.size === 0 && this.inFlight.size === 0;
  }

  /** A new reader can still read this window from its newest log. */
  get joinable(): boolean {
    return this.base === 0 && this.retain && !this.failure;
  }

  reachedEnd(index: number): boolean {
    return this.nextPosition >= this.endPosition && index >= this.base + this.logs.length;
  }

  /**
   * A reader of the first `cap` logs. `pages` reads with the reader's key (all readers of one
   * window share a key). Resolves once the window is anchored, or rejects with its failure.
   */
  async addReader(cap: number, pages: PageReader, signal: AbortSignal): Promise<WindowReader> {
    if (this.base !== 0) throw new Error("this window dropped its newest logs; open a new one");
    const reader = new WindowReader(this, 0, cap);
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
      throw this.failure ?? new AppError("bad_request", "The request was cancelled by the client.");
    }
    return reader;
  }

  /**
   * Brings an idle window up to date with one call: the newest page, whose logs before the
   * newest one known are prepended. False when too many arrived to link the two (or the page
   * does not agree with the window): the caller starts a new window. Throws what the hub
   * answered (a rotated key's 401, for one).
   */
  async refresh(pages: PageReader, signal: AbortSignal): Promise<boolean> {
    if (!this.joinable || this.anchorTotal === null) return false;
    const page = await patiently(() => {
      this.calls++;
      return pages(0, signal);
    }, signal);
    const total = page.pagination.total;
    const newest = this.logs[0];
    if (!newest) return false;
    const known = page.data.findIndex((log) => log.id === newest.id);
    if (known < 0 || total - this.anchorTotal !== known) return false;
    const fresh = page.data.slice(0, known);
    for (const log of fresh) {
      this.ids.add(log.id);
      this.bytes += sizeOf(log);
    }
    this.logs.unshift(...fresh);
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

  /** Called by readers; see WindowReader.next. */
  async nextFor(reader: WindowReader): Promise<WebhookLog[] | null> {
    for (;;) {
      if (reader.closed) return null;
      const available = Math.min(this.base + this.logs.length, reader.until) - reader.cursor;
      if (available > 0) {
        const start = reader.cursor - this.base;
        const batch = this.logs.slice(start, start + available);
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

  closeReader(reader: WindowReader): void {
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
    const skipped = this.nextPosition - (this.base + this.logs.length);
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

  private async readPage(position: number, pages: PageReader): Promise<void> {
    const generation = this.generation;
    const signal = this.controller.signal;
    this.inFlight.add(position);
    let attempts = 0;
    for (;;) {
      const wait = this.pausedUntil - Date.now();
      if (wait > 0) await sleep(wait, signal);
      if (generation !== this.generation) return;
      const offset = position + this.arrived;
      let page: WebhookLogPage;
      try {
        this.calls++;
        page = await pages(offset, signal);
      } catch (error) {
        if (generation !== this.generation) return;
        const appError = isAppError(error)
          ? error
          : new AppError("internal", "Reading the history failed unexpectedly. Try again.", { cause: error });
        if (appError.code === "rate_limited") {
          const seconds = appError.retryAfter ?? 5;
          if (++this.strikes > RATE_LIMIT_STRIKES || seconds > RETRY_AFTER_MAX_SECONDS)
            return this.fail(appError);
          this.pausedUntil = Math.max(this.pausedUntil, Date.now() + seconds * 1000);
          this.concurrency = Math.max(1, Math.floor(this.concurrency / 2));
          this.sinceRecovery = 0;
          continue;
        }
        if (isTransient(appError) && attempts < RETRIES) {
          attempts++;
          await sleep(BACKOFF_MS * 2 ** (attempts - 1) * (0.75 + Math.random() / 2), signal);
          continue;
        }
        return this.fail(appError);
      }
      if (generation !== this.generation) return;
      this.strikes = 0;
      if (this.concurrency < this.options.concurrency && ++this.sinceRecovery >= RECOVER_AFTER) {
        this.concurrency++;
        this.sinceRecovery = 0;
      }
      this.inFlight.delete(position);
      this.place(offset, page);
      this.notify();
      this.pump();
      return;
    }
  }

  /** Puts a page's logs at their anchor positions and commits what is now contiguous. */
  private place(offset: number, page: WebhookLogPage): void {
    const total = page.pagination.total;
    let start = offset;
    if (this.anchorTotal === null) {
      this.anchorTotal = total;
      this.endPosition = total;
    } else {
      const shift = Math.max(0, total - this.anchorTotal);
      this.arrived = Math.max(this.arrived, shift);
      start = offset - shift;
    }
    page.data.forEach((log, i) => {
      const position = start + i;
      if (position >= this.nextPosition && position < this.endPosition) this.pending.set(position, log);
    });
    // The end of the list, as this page saw it (fewer rows than asked, or past the total).
    if (page.data.length < PAGE_SIZE || offset + page.data.length >= total) {
      this.endPosition = Math.min(this.endPosition, Math.max(start + page.data.length, this.nextPosition));
    }
    for (;;) {
      const log = this.pending.get(this.nextPosition);
      if (!log) break;
      this.pending.delete(this.nextPosition);
      this.nextPosition++;
      if (this.ids.has(log.id)) continue;
      this.ids.add(log.id);
      this.logs.push(log);
      this.bytes += sizeOf(log);
    }
    if (this.retain && this.bytes > this.options.maxBytes) {
      this.retain = false;
      this.options.onStopRetaining?.();
      this.dropConsumed();
    }
  }

  /** A window that does not retain keeps only what some reader has not consumed yet. */
  private dropConsumed(): void {
    if (this.retain) return;
    let lowest = this.base + this.logs.length;
    for (const reader of this.readers) lowest = Math.min(lowest, reader.cursor);
    const drop = lowest - this.base;
    if (drop <= 0) return;
    for (const log of this.logs.splice(0, drop)) {
      this.ids.delete(log.id);
      this.bytes -= sizeOf(log);
    }
    this.base += drop;
  }
}
