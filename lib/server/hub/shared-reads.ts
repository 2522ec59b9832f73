import "server-only";
import { POLL_REUSE_MS } from "@/lib/domain/query-keys";
import { AppError } from "@/lib/server/app-error";

/**
 * Identical upstream reads share one call. A request may use a call that started after it
 * reached the server (arrival.ts; so a person never gets an answer older than their own
 * request: a key rotated a moment ago still gives 401), and an auto-refresh poll may also use a successful one at most
 * POLL_REUSE_MS old. A request that arrives while a call it may not use is in flight waits for
 * one follow-up call, started when that call settles: so a burst of identical requests makes at
 * most two calls, however the machine spreads their arrival, and each still gets an answer from
 * after it arrived. A failed call is forgotten as soon as it settles. The caller's key names
 * the read (the hub client puts a keyed hash of the API key in it, never the key).
 */

/** The most reads remembered at once; the oldest go first. */
export const MAX_SHARED_READS = 1000;

interface Entry {
  /** performance.now() when the upstream call started; Infinity while it waits for the call before it. */
  startedAt: number;
  promise: Promise<unknown>;
  settled: boolean;
  /** Requests waiting on it; when the last one leaves before it settles, the call is cancelled. */
  waiters: number;
  controller: AbortController;
  /** The upstream answer's HTTP status, once known. */
  status?: number;
  /** The follow-up call waiting for this one to settle, for requests that arrived after it started. */
  next?: Entry;
}

const entries = new Map<string, Entry>();

export interface SharedReadOptions {
  /** When the asking request arrived (performance.now()): a call started before it is not used. */
  since: number;
  /** An auto-refresh poll: a successful read at most POLL_REUSE_MS old will do. */
  poll: boolean;
  /** The request's own signal: when it aborts, this request stops waiting (with a 400). */
  signal?: AbortSignal;
  /**
   * False: shared only while in flight, forgotten once it settles (no poll will want it, and the
   * caller keeps what it needs: the history scan's pages would otherwise hold up to
   * MAX_SHARED_READS parsed pages of 50 logs). Default true.
   */
  keep?: boolean;
}

/**
 * One upstream call: `waitedMs` is how long a follow-up waited for the call before it, which
 * its own timeout leaves out, so no request waits for the hub longer than one timeout in all.
 */
export type ReadCall<T> = (
  signal: AbortSignal,
  onStatus: (status: number) => void,
  waitedMs: number,
) => Promise<T>;

/** What one request got: the upstream status (when an answer came) and whether another request's call served it. */
export type ReadReport = (status: number | undefined, shared: boolean) => void;

/** The read of `key`: a call of `run` that this request may use, or a new one. */
export function sharedRead<T>(
  key: string,
  options: SharedReadOptions,
  run: ReadCall<T>,
  report?: ReadReport,
): Promise<T> {
  const oldest = options.poll ? Math.min(options.since, performance.now() - POLL_REUSE_MS) : options.since;
  const found = entries.get(key);
  // Only kept reads wait for a follow-up: a history scan's pages (keep: false) go out at once.
  const inFlight = found && !found.settled && (options.keep ?? true) ? found : undefined;
  const next = inFlight?.next && !inFlight.next.controller.signal.aborted ? inFlight.next : undefined;
  const usable = found && found.startedAt >= oldest ? found : next;
  const entry = usable ?? start(key, run, options.keep ?? true, inFlight);
  return wait(key, entry, options.signal, (status) => report?.(status, entry === usable)) as Promise<T>;
}

/** The error of a request whose client went away while it waited. */
export function cancelledByClient(cause?: unknown): AppError {
  return new AppError("bad_request", "The request was cancelled by the client.", { cause });
}

/** A new call of `run`: at once, or, with `after`, as the follow-up that starts once `after` settles. */
function start<T>(key: string, run: ReadCall<T>, keep: boolean, after?: Entry): Entry {
  const controller = new AbortController();
  const createdAt = performance.now();
  const entry: Entry = {
    startedAt: Infinity,
    promise: Promise.resolve(),
    settled: false,
    waiters: 0,
    controller,
  };
  const call = () => {
    // Every request waiting for the follow-up left before it started: it is not made.
    if (controller.signal.aborted) throw controller.signal.reason;
    entry.startedAt = performance.now();
    entries.delete(key);
    entries.set(key, entry);
    sweep();
    return run(controller.signal, (status) => (entry.status = status), entry.startedAt - createdAt);
  };
  entry.promise = (after ? after.promise.then(call, call) : call()).then(
    (value) => {
      entry.settled = true;
      if (!keep) forget(key, entry);
      return value;
    },
    (error: unknown) => {
      entry.settled = true;
      forget(key, entry);
      throw error;
    },
  );
  // Rejections reach each waiter; with none left, the cancelled call's rejection is not an error.
  entry.promise.catch(() => {});
  if (after) after.next = entry;
  return entry;
}

function forget(key: string, entry: Entry): void {
  if (entries.get(key) === entry) entries.delete(key);
}

/** Oldest first (insertion order is start order): past the size bound, or settled and too old for any poll. */
function sweep(): void {
  const expired = performance.now() - POLL_REUSE_MS;
  for (const [key, entry] of entries) {
    if (entries.size <= MAX_SHARED_READS && !(entry.settled && entry.startedAt < expired)) break;
    entries.delete(key);
  }
}

function wait(
  key: string,
  entry: Entry,
  signal: AbortSignal | undefined,
  report: (status: number | undefined) => void,
): Promise<unknown> {
  entry.waiters += 1;
  return new Promise((resolve, reject) => {
    let done = false;
    const leave = () => {
      if (done) return false;
      done = true;
      entry.waiters -= 1;
      signal?.removeEventListener("abort", onAbort);
      return true;
    };
    const onAbort = () => {
      if (!leave()) return;
      if (entry.waiters === 0 && !entry.settled) {
        forget(key, entry);
        entry.controller.abort(signal?.reason);
      }
      reject(cancelledByClient(signal?.reason));
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    entry.promise.then(
      (value) => {
        if (!leave()) return;
        report(entry.status);
        resolve(value);
      },
      (error: unknown) => {
        if (!leave()) return;
        report(entry.status);
        reject(error);
      },
    );
  });
}

/** For tests: forget every read. */
export function forgetSharedReadsForTests(): void {
  entries.clear();
}

/** For tests: how many reads are remembered. */
export function sharedReadCountForTests(): number {
  return entries.size;
}
