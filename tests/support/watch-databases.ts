/**
 * TEST ONLY (vitest). The watch's store on each database it runs on: the embedded SQLite (a
 * fresh in-memory database each time) and a real PostgreSQL (the run's server, started once by
 * postgres-global-setup.ts, a fresh database each time), for `describe.each(WATCH_DATABASES)`.
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, inject } from "vitest";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { StoreContext } from "@/lib/server/store/context";
import { claimDue, finishPoll, writeLogs, type CursorChange } from "@/lib/server/watch/cursor";
import { openStoreContext, type StoreOptions } from "@/lib/server/store/context";
import { createDatabase, postgresServer, type PostgresServer } from "@/tests/support/postgres-server";

export const WATCH_DATABASES = ["sqlite", "postgres"] as const;
export type WatchDatabaseKind = (typeof WATCH_DATABASES)[number];

export const TEST_SECRET = "a-watch-secret-for-tests-32-chars!!";

export interface WatchDatabases {
  /** A PostgreSQL server of this file's own, started on first use: for a test that stops it. */
  ownPostgres(): Promise<PostgresServer>;
  /** A URL of a fresh database on the run's server. */
  freshPostgresUrl(): Promise<string>;
  /** A fresh, migrated store context on `kind`. */
  fresh(kind: WatchDatabaseKind, options?: Partial<Omit<StoreOptions, "target">>): Promise<StoreContext>;
}

/**
 * Call at the top of a test file: every context opened (and the file's own server, if it started
 * one) is closed after the file.
 */
export function watchDatabases(): WatchDatabases {
  let server: Promise<PostgresServer> | undefined;
  // Files share the run's server: a prefix of this file's own keeps their databases apart.
  const prefix = `watch_${randomBytes(4).toString("hex")}`;
  let count = 0;
  const opened: StoreContext[] = [];
  afterAll(async () => {
    await Promise.all(opened.splice(0).map((ctx) => ctx.db.destroy().catch(() => undefined)));
    if (server) await (await server).remove();
  });
  const databases: WatchDatabases = {
    ownPostgres: () => (server ??= postgresServer()),
    freshPostgresUrl: () => createDatabase(inject("postgresUrl"), `${prefix}_${++count}`),
    async fresh(kind, options = {}) {
      const target: StoreOptions["target"] =
        kind === "sqlite"
          ? { kind: "sqlite", path: ":memory:" }
          : { kind: "postgres", url: await databases.freshPostgresUrl() };
      const ctx = await openStoreContext({ target, secrets: [TEST_SECRET], bodyCapBytes: 64, ...options });
      opened.push(ctx);
      return ctx;
    },
  };
  return databases;
}

/**
 * Console instances on one PostgreSQL database: `instance(url)` opens one's own connection to the
 * database at `url`, closed after each test. Call in a describe.
 */
export function postgresInstances(): (url: string) => Promise<StoreContext> {
  const opened: StoreContext[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((ctx) => ctx.db.destroy()));
  });
  return async (url) => {
    const ctx = await openStoreContext({
      target: { kind: "postgres", url },
      secrets: [TEST_SECRET],
      bodyCapBytes: 64,
    });
    opened.push(ctx);
    return ctx;
  };
}

/**
 * Stores a webhook's logs (newest first) as the watcher does: claimed at `now` (after the watch's
 * first planned poll), written with the cursor, released.
 */
export async function storeLogs(
  ctx: StoreContext,
  webhookId: string,
  logs: WebhookLog[],
  now = Date.now() + 60_000,
  cursor: CursorChange = {},
): Promise<void> {
  await claimDue(ctx, "test", 100, 60_000, now);
  await writeLogs(
    ctx,
    "test",
    webhookId,
    logs,
    { head_id: logs[0]?.id ?? null, tail_offset: null, ...cursor },
    60_000,
    now,
  );
  await finishPoll(ctx, "test", webhookId, { nextPollAt: now, error: null }, now);
}
