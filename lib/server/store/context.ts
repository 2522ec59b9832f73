import "server-only";
import { DEFAULT_RESOLVE_AFTER } from "@/lib/domain/watch/failure-issue";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { sessionSecrets } from "@/lib/server/session/secrets";
import { openDatabase, type DatabaseTarget } from "@/lib/server/store/database";
import type { StoreDb } from "@/lib/server/store/schema";
import { createSealer, type Sealer } from "@/lib/server/store/seal";

/**
 * The console's store: one database (the embedded SQLite file, or PostgreSQL with DATABASE_URL)
 * and what its query modules share. Watches, copies of webhooks' histories, failure issues,
 * alerts, sign-outs and the counts /metrics reads all live in it; each module has flat query
 * functions taking a StoreContext.
 */
export interface StoreContext {
  db: StoreDb;
  kind: "postgres" | "sqlite";
  sealer: Sealer;
  /** Stored bytes of a response body (WATCH_BODY_CAP_BYTES). */
  bodyCapBytes: number;
  /** Successful deliveries in a row that resolve a failure issue, and end an alert incident (WATCH_ISSUE_RESOLVE_AFTER). */
  issueResolveAfter: number;
}

export const toIso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : toIso(ms));

/** What a store is opened with; `sharedStoreContext()` takes these from the configuration. */
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
    "The console's database is not answering, so what it keeps (watches, history questions, issues, alerts) cannot be read right now. " +
      "The log table still reads the hub live; try again in a moment.",
    { cause: error },
  );
}

/** Opens (and migrates) a database and the context the query modules and the watcher share. */
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
 * `work` over this process's store; a database that cannot be opened or fails under it is
 * `store_unavailable` (503), and the AppErrors `work` throws (`not_found`, `bad_request`) pass.
 */
export async function withStore<T>(work: (ctx: StoreContext) => Promise<T>): Promise<T> {
  try {
    return await work(await sharedStoreContext());
  } catch (error) {
    throw unavailable(error);
  }
}

/** Closes this process's store, if open: the next use opens it again (a fresh one, for `:memory:`). */
export async function closeSharedStore(): Promise<void> {
  const shared = ((globalThis as Record<symbol, unknown>)[SHARED] ??= {}) as Shared;
  const context = shared.context;
  shared.context = undefined;
  await context?.then((ctx) => ctx.db.destroy()).catch(() => undefined);
}
