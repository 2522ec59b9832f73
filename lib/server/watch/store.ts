import "server-only";
import type { Webhook } from "@/lib/domain/hub-schemas";
import type { FindTarget } from "@/lib/domain/history/find-input";
import type { FoundDelivery } from "@/lib/domain/watch/find-across";
import type { HealthSummary } from "@/lib/domain/history/health";
import type { HistoryQuestion } from "@/lib/domain/history/question";
import type { OverviewRow, Watch, WatcherHealth } from "@/lib/domain/watch/overview";
import { DEFAULT_RESOLVE_AFTER, type FailureIssue, type IssueAction } from "@/lib/domain/watch/failure-issue";
import type { StoreCoverage, StoredLog, TimelineEvent, TimelineRange } from "@/lib/domain/watch/stored-log";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { sessionSecrets } from "@/lib/server/session/secrets";
import type { StoreContext } from "@/lib/server/watch/context";
import { openDatabase, type DatabaseTarget } from "@/lib/server/watch/database";
import * as issues from "@/lib/server/watch/failure-issues";
import { findAcross } from "@/lib/server/watch/find-across";
import * as rows from "@/lib/server/watch/overview-rows";
import { createSealer } from "@/lib/server/watch/seal";
import * as logs from "@/lib/server/watch/stored-logs";
import * as watches from "@/lib/server/watch/watches";

export type { OverviewRow, Watch, WatcherHealth } from "@/lib/domain/watch/overview";
export type { StoreCoverage, StoredLog, TimelineEvent, TimelineRange } from "@/lib/domain/watch/stored-log";
export type { FoundDelivery } from "@/lib/domain/watch/find-across";

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
   * watches, names and history, the alert rules, snoozes and quiet hours, and the alert
   * destinations but those in `dropDestinations` move to the new key's application id, and the
   * sealed key is replaced. The caller checks first that the new key reads the same webhooks (see
   * `handOverKey` in hand-over.ts, which does both). Returns the new application id.
   */
  replaceKey(
    oldAppId: string,
    newApiKey: string,
    dropDestinations?: readonly string[],
  ): Promise<{ appId: string }>;

  /** The application's key, opened, for the watcher's polls; null when none is stored or it cannot be opened. */
  openKey(appId: string): Promise<string | null>;

  /** Marks the application's key rejected (the hub answered 401): its webhooks are not polled until a new key is handed over. */
  markKeyRejected(appId: string, reason: string): Promise<void>;

  /** Applications whose stored key the hub rejects or no configured secret opens, most recently rejected first. */
  rejectedApplications(): Promise<string[]>;

  /** Which of these applications have a stored key, and whether it is rejected. */
  keyStates(
    appIds: readonly string[],
  ): Promise<Array<{ appId: string; rejected: boolean; rejectedAt: string | null }>>;

  // --- Stored logs of a watched webhook (newest first, as the hub lists them) -----------------

  /** How much history the store holds for this webhook, and how fresh. */
  coverage(webhookId: string): Promise<StoreCoverage>;

  /**
   * Delivery health of the logs matching a question, from the store: the summary a scan gives
   * (the failing streak over every stored log with `followStreak`, else over those since `since`).
   */
  health(
    webhookId: string,
    question: HistoryQuestion,
    options: { now: number; followStreak: boolean },
  ): Promise<HealthSummary>;

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

  /**
   * The newest stored delivery answering the target across every watch of these applications
   * (find-across.ts), with its watch; null when none holds it.
   */
  findAcross(appIds: readonly string[], target: FindTarget): Promise<FoundDelivery | null>;

  /** Changes of `active` and jumps of `numberOfErrors`, newest first (within `range`, when given). */
  timeline(webhookId: string, range?: TimelineRange): Promise<TimelineEvent[]>;

  // --- Overview and the watcher's health ------------------------------------------------------

  /** One row per watch of these applications, worst first (compareOverviewRows). */
  overview(appIds: readonly string[], now?: number): Promise<OverviewRow[]>;

  /** The watcher's health over the watches of these applications. */
  watcherHealth(appIds: readonly string[], now?: number): Promise<WatcherHealth>;

  // --- Failure issues (kept up to date as logs are stored) -----------------------------------

  /** The failure issues of these applications' watches (of one webhook, when given), worst first. */
  listIssues(appIds: readonly string[], filter?: { webhookId?: string | null }): Promise<FailureIssue[]>;

  /** A person's change of an issue's state, with the name they typed and their note; `not_found` for another application's. */
  changeIssue(
    appIds: readonly string[],
    issueId: string,
    change: { action: IssueAction; name: string; note: string | null },
  ): Promise<FailureIssue>;

  /** Closes the database connections. */
  close(): Promise<void>;
}

/** Longest watch name. */
export { NAME_MAX } from "@/lib/server/watch/watches";

/** What a store is opened with; `watchStore()` takes these from the configuration. */
export interface StoreOptions {
  target: DatabaseTarget;
  /** Secrets that seal and open keys, newest first. */
  secrets: readonly string[];
  bodyCapBytes: number;
  /** Successes in a row that resolve a failure issue by itself; DEFAULT_RESOLVE_AFTER when left out. */
  issueResolveAfter?: number;
}

/** Any failure that is not already an AppError is the database's: the store is unavailable. */
export function unavailable(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError(
    "store_unavailable",
    "The watch's database is not answering, so watched webhooks cannot be shown from it right now. The live API still answers; try again in a moment.",
    { cause: error },
  );
}

/** Wraps each method so a database failure becomes `store_unavailable`. */
function guarded(store: WatchStore): WatchStore {
  const wrap =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } catch (error) {
        throw unavailable(error);
      }
    };
  return {
    ...store,
    addWatches: wrap(store.addWatches),
    renameWatch: wrap(store.renameWatch),
    removeWatch: wrap(store.removeWatch),
    listWatches: wrap(store.listWatches),
    getWatch: wrap(store.getWatch),
    replaceKey: wrap(store.replaceKey),
    openKey: wrap(store.openKey),
    markKeyRejected: wrap(store.markKeyRejected),
    rejectedApplications: wrap(store.rejectedApplications),
    keyStates: wrap(store.keyStates),
    coverage: wrap(store.coverage),
    health: wrap(store.health),
    queryLogs: wrap(store.queryLogs),
    findLog: wrap(store.findLog),
    findAcross: wrap(store.findAcross),
    timeline: wrap(store.timeline),
    overview: wrap(store.overview),
    watcherHealth: wrap(store.watcherHealth),
    listIssues: wrap(store.listIssues),
    changeIssue: wrap(store.changeIssue),
    async *streamLogs(webhookId, question) {
      try {
        yield* store.streamLogs(webhookId, question);
      } catch (error) {
        throw unavailable(error);
      }
    },
  };
}

/** The store over an open database: what `watchStore()` returns, and what tests build on each database. */
export function storeOver(ctx: StoreContext): WatchStore {
  return guarded({
    addWatches: (appId, apiKey, items) => watches.addWatches(ctx, appId, apiKey, items),
    renameWatch: (appIds, webhookId, name) => watches.renameWatch(ctx, appIds, webhookId, name),
    removeWatch: (appIds, webhookId) => watches.removeWatch(ctx, appIds, webhookId),
    listWatches: (appIds) => watches.listWatches(ctx, appIds),
    getWatch: (appIds, webhookId) => watches.getWatch(ctx, appIds, webhookId),
    replaceKey: (oldAppId, newApiKey, dropDestinations) =>
      watches.replaceKey(ctx, oldAppId, newApiKey, dropDestinations),
    openKey: (appId) => watches.openKey(ctx, appId),
    markKeyRejected: (appId, reason) => watches.markKeyRejected(ctx, appId, reason),
    rejectedApplications: () => watches.rejectedApplications(ctx),
    keyStates: (appIds) => watches.keyStates(ctx, appIds),
    coverage: (webhookId) => logs.coverage(ctx, webhookId),
    health: (webhookId, question, options) => logs.health(ctx, webhookId, question, options),
    queryLogs: (webhookId, question, page) => logs.queryLogs(ctx, webhookId, question, page),
    streamLogs: (webhookId, question) => logs.streamLogs(ctx, webhookId, question),
    findLog: (webhookId, target, status) => logs.findLog(ctx, webhookId, target, status),
    findAcross: (appIds, target) => findAcross(ctx, appIds, target),
    timeline: (webhookId, range) => logs.timeline(ctx, webhookId, range),
    overview: (appIds, now) => rows.overview(ctx, appIds, now),
    watcherHealth: (appIds, now) => rows.watcherHealth(ctx, appIds, now),
    listIssues: (appIds, filter) => issues.listIssues(ctx, appIds, filter),
    changeIssue: (appIds, issueId, change) => issues.changeIssue(ctx, appIds, issueId, change),
    close: () => ctx.db.destroy(),
  });
}

/** Opens (and migrates) a database and the context the store and the watcher share. */
export async function openStoreContext(options: StoreOptions): Promise<StoreContext> {
  const { db, kind } = await openDatabase(options.target);
  return {
    db,
    kind,
    sealer: createSealer(options.secrets),
    bodyCapBytes: options.bodyCapBytes,
    issueResolveAfter: options.issueResolveAfter ?? DEFAULT_RESOLVE_AFTER,
  };
}

/** The store's options from the configuration: WATCH_SECRET(s), else keys derived from SESSION_SECRET(s). */
export function configuredStoreOptions(): StoreOptions {
  const { watch } = serverConfig();
  return {
    target: watch.databaseUrl
      ? { kind: "postgres", url: watch.databaseUrl }
      : { kind: "sqlite", path: watch.sqlitePath },
    secrets: watch.secrets.length > 0 ? watch.secrets : sessionSecrets(),
    bodyCapBytes: watch.bodyCapBytes,
    issueResolveAfter: watch.issueResolveAfter,
  };
}

const SHARED = Symbol.for("hub-console.watch-store");
type Shared = { context?: Promise<StoreContext> };

/**
 * The context of this process's store, opened on first use (kept on globalThis: Next loads the
 * route handlers and `register` in separate bundles). A failed open is not kept, so the next
 * call tries again. Throws the Error of openDatabase, which names the variable.
 */
export function sharedStoreContext(): Promise<StoreContext> {
  const shared = ((globalThis as Record<symbol, unknown>)[SHARED] ??= {}) as Shared;
  shared.context ??= openStoreContext(configuredStoreOptions()).catch((error: unknown) => {
    shared.context = undefined;
    throw error;
  });
  return shared.context;
}

/**
 * The store of this process, opened (and migrated) on first use from DATABASE_URL, or the
 * embedded database when it is unset. Throws `store_unavailable` when it cannot open.
 */
export async function watchStore(): Promise<WatchStore> {
  try {
    return storeOver(await sharedStoreContext());
  } catch (error) {
    throw unavailable(error);
  }
}
