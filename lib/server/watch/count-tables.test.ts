/**
 * The hourly failures per status code (watch_log_codes), kept with each write of logs as
 * watch_log_hours is, pruned with it, removed with the watch, and filled from the stored logs
 * by migration 0012; on each database.
 */
import { addWatches, removeWatch } from "@/lib/server/watch/watches";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { HOUR_MS } from "@/lib/domain/watch/hourly-counts";
import { prune } from "@/lib/server/watch/cursor";
import type { StoreContext } from "@/lib/server/store/context";
import { migrations } from "@/lib/server/store/migrations";
import type { StoreDb } from "@/lib/server/store/schema";

import { webhookLog } from "@/tests/support/webhook-log";
import { storeLogs, watchDatabases, WATCH_DATABASES } from "@/tests/support/watch-databases";

const databases = watchDatabases();
const APP = "0123456789abcdef";
const WEBHOOK = "9a8b7c6d-0000-4000-8000-00000000000a";
/** The start of an hour, well in the past: the logs' times are counted from it. */
const HOUR = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 48 * HOUR_MS;

const logAt = (at: number, code: number) =>
  webhookLog(WEBHOOK, at, code, `status ${code}`, { id: randomUUID(), messageId: randomUUID() });

async function codes(db: StoreDb) {
  const rows = await db
    .selectFrom("watch_log_codes")
    .select(["webhook_id", "hour", "status_code", "failed"])
    .orderBy("hour")
    .orderBy("status_code")
    .execute();
  return rows.map((row) => [row.webhook_id, Number(row.hour) - HOUR, row.status_code, row.failed]);
}

async function watched(ctx: StoreContext) {
  await addWatches(ctx, APP, "a-key-for-count-tables-0123", [
    {
      webhook: {
        id: WEBHOOK,
        endpoint: "https://x.test/h",
        eventType: "Message",
        active: true,
        numberOfErrors: 0,
      },
    },
  ]);
}

describe.each(WATCH_DATABASES)("failures per hour and status code (%s)", (kind) => {
  it("are counted as logs are written, pruned with the hours, and removed with the watch", async () => {
    const ctx = await databases.fresh(kind);
    await watched(ctx);
    // Newest first: two hours, two codes, successes not counted.
    await storeLogs(ctx, WEBHOOK, [
      logAt(HOUR + HOUR_MS + 5_000, 503),
      logAt(HOUR + HOUR_MS + 1_000, 200),
      logAt(HOUR + 30_000, 500),
      logAt(HOUR + 20_000, 500),
      logAt(HOUR + 10_000, 503),
    ]);
    // A later write of the same hour adds to it; a log already stored is not counted again.
    await storeLogs(ctx, WEBHOOK, [logAt(HOUR + HOUR_MS + 9_000, 503)]);
    expect(await codes(ctx.db)).toEqual([
      [WEBHOOK, 0, 500, 2],
      [WEBHOOK, 0, 503, 1],
      [WEBHOOK, HOUR_MS, 503, 2],
    ]);

    // A day's retention cut just after the first hour ended: prune keeps one hour before the cut
    // (as for watch_log_hours), so only the first hour goes.
    await prune(ctx, 1, HOUR + HOUR_MS + 1 + 86_400_000);
    expect(await codes(ctx.db)).toEqual([[WEBHOOK, HOUR_MS, 503, 2]]);

    await removeWatch(ctx, [APP], WEBHOOK);
    expect(await codes(ctx.db)).toEqual([]);
  });

  it("are counted from the logs stored before migration 0012", async () => {
    let db: StoreDb;
    if (kind === "sqlite") {
      db = new Kysely({ dialect: new SqliteDialect({ database: new Database(":memory:") }) });
    } else {
      const pool = new pg.Pool({ connectionString: await databases.freshPostgresUrl() });
      db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    }
    try {
      const migrator = new Migrator({ db, provider: migrations });
      expect((await migrator.migrateTo("0011_revoked_sessions")).error).toBeUndefined();
      const row = (at: number, status: string, code: number) => ({
        webhook_id: WEBHOOK,
        id: randomUUID(),
        status,
        status_code: code,
        send_at: at,
        created_at: at + 10,
        message_id: null,
        body: "",
        body_size: 0,
        body_sha256: "",
        signature: null,
      });
      await db
        .insertInto("watch_logs")
        .values([
          row(HOUR + 1_000, "Failed", 500),
          row(HOUR + 2_000, "Failed", 500),
          row(HOUR + 3_000, "Success", 200),
          row(HOUR + HOUR_MS + 1_000, "Failed", 0),
        ])
        .execute();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await codes(db)).toEqual([
        [WEBHOOK, 0, 500, 2],
        [WEBHOOK, HOUR_MS, 0, 1],
      ]);
    } finally {
      await db.destroy();
    }
  });
});
