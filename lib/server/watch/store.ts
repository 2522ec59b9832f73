import "server-only";
import type { Webhook } from "@/lib/domain/hub-schemas";
import type { FindTarget } from "@/lib/domain/history/find-input";
import type { HealthSummary } from "@/lib/domain/history/health";
import type { HistoryQuestion } from "@/lib/domain/history/question";
import type { OverviewRow, Watch, WatcherHealth } from "@/lib/domain/watch/overview";
import type { StoreCoverage, StoredLog, TimelineEvent } from "@/lib/domain/watch/stored-log";

export type { OverviewRow, Watch, WatcherHealth } from "@/lib/domain/watch/overview";
export type { StoreCoverage, StoredLog, TimelineEvent } from "@/lib/domain/watch/stored-log";

/**
 * The watch's store: watches, the sealed key of each watched application, a compact copy of
 * the watched webhooks' logs, their timeline, and the watcher's state. One interface over the
 * embedded database (better-sqlite3, `.data/watch.sqlite`) and PostgreSQL (DATABASE_URL).
 *
 * Access: every read and change names the applications of the caller's session (`appIds`, the
 * console's ids of the keys it holds); a watch of another application is "not found". Failures
 * are AppErrors: `not_found`, `bad_request` (with the field), `store_unavailable` (503) when the
 * database does not answer.
 */
export interface WatchStore {
  // --- Watches -------------------------------------------------------------------------------

  /**
   * Watches webhooks of one application, storing its key sealed (replacing the sealed key it
   * had, which clears "key rejected"). The caller has already read each webhook with `apiKey`
   * from the hub (that check is the proof the key reads it). A webhook already watched keeps its
   * history; under another application it moves to this one (the hub just vouched for this
   * key). `name` blank or absent: the watch keeps its name, or is named by the endpoint.
   * All or nothing. Returns the watches as stored.
   */
  addWatches(
    appId: string,
    apiKey: string,
    items: ReadonlyArray<{ webhook: Webhook; name?: string }>,
  ): Promise<Watch[]>;

  /** Renames a watch (name trimmed, 1..NAME_MAX characters; else `bad_request` on `name`). */
  renameWatch(appIds: readonly string[], webhookId: string, name: string): Promise<Watch>;

  /**
   * Stops watching: the watch, its stored logs, timeline and state go; when it was the
   * application's last watch, its sealed key goes too.
   */
  removeWatch(appIds: readonly string[], webhookId: string): Promise<void>;

  /** The watches of these applications, by name. */
  listWatches(appIds: readonly string[]): Promise<Watch[]>;

  /** The watch of this webhook, when one of these applications has it; else null. */
  getWatch(appIds: readonly string[], webhookId: string): Promise<Watch | null>;

  // --- Sealed keys ---------------------------------------------------------------------------

  /**
   * Hands a new key over to a watched application (its old key rotated or rejected): the
   * watches, names and history move to the new key's application id and the sealed key is
   * replaced. The caller checks first that the new key reads the same webhooks (see
   * `handOverKey` in hand-over.ts, which does both). Returns the new application id.
   */
  replaceKey(oldAppId: string, newApiKey: string): Promise<{ appId: string }>;

  /** The application's key, opened, for the watcher's polls; null when none is stored or it cannot be opened. */
  openKey(appId: string): Promise<string | null>;

  /** Marks the application's key rejected (the hub answered 401): its webhooks are not polled until a new key is handed over. */
  markKeyRejected(appId: string, reason: string): Promise<void>;

  /** Which of these applications have a stored key, and whether it is rejected. */
  keyStates(
    appIds: readonly string[],
  ): Promise<Array<{ appId: string; rejected: boolean; rejectedAt: string | null }>>;

  // --- Stored logs of a watched webhook (newest first, as the hub lists them) -----------------

  /** How much history the store holds for this webhook, and how fresh. */
  coverage(webhookId: string): Promise<StoreCoverage>;

  /** Delivery health over [from, to] (epoch ms), from the store: the same summary the scan gives. */
  health(webhookId: string, window: { from: number; to: number }): Promise<HealthSummary>;

  /**
   * The logs matching a question, newest first, one page of them and how many match in all.
   * `contains` reads the stored (capped) body.
   */
  queryLogs(
    webhookId: string,
    question: HistoryQuestion,
    page: { offset: number; limit: number },
  ): Promise<{ rows: StoredLog[]; total: number }>;

  /** Every log matching a question, newest first, in batches (for exports). */
  streamLogs(webhookId: string, question: HistoryQuestion): AsyncIterable<StoredLog[]>;

  /**
   * Finds a log by its id or its message id (newest first when a message has several). `index`
   * is its place, newest first, among the stored logs of the webhook that match `status` (null:
   * all): what the log table needs to open its page.
   */
  findLog(
    webhookId: string,
    target: FindTarget,
    status?: HistoryQuestion["status"],
  ): Promise<{ log: StoredLog; index: number } | null>;

  /** Changes of `active` and jumps of `numberOfErrors`, newest first. */
  timeline(webhookId: string, limit?: number): Promise<TimelineEvent[]>;

  // --- Overview and the watcher's health ------------------------------------------------------

  /** One row per watch of these applications, worst first (compareOverviewRows). */
  overview(appIds: readonly string[], now?: number): Promise<OverviewRow[]>;

  /** The watcher's health over the watches of these applications. */
  watcherHealth(appIds: readonly string[], now?: number): Promise<WatcherHealth>;

  /** Closes the database connections. */
  close(): Promise<void>;
}

/** Longest watch name. */
export const NAME_MAX = 120;

/**
 * The store of this process, opened (and migrated) on first use from DATABASE_URL, or the
 * embedded database when it is unset. Shared by the route handlers and the watcher (kept on
 * globalThis: Next loads them in separate bundles). Throws `store_unavailable` when it cannot open.
 */
export async function watchStore(): Promise<WatchStore> {
  throw new Error("not yet");
}
