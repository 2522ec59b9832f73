import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { sql } from "kysely";
import { migrations } from "@/lib/server/store/migrations";
import type { StoreDb } from "@/lib/server/store/schema";

/** Which database the store runs on: PostgreSQL (`DATABASE_URL`) or the embedded SQLite file. */
export type DatabaseTarget = { kind: "postgres"; url: string } | { kind: "sqlite"; path: string };

export interface OpenDatabase {
  db: StoreDb;
  kind: DatabaseTarget["kind"];
}

/** bigint (int8) and numeric counts arrive from pg as numbers: every one the store holds fits. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === 20 ? Number : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

function dialectOf(target: DatabaseTarget) {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({
      connectionString: target.url,
      types: pgTypes,
      max: 10,
      connectionTimeoutMillis: 5000,
    });
    // An idle client losing its connection (the server restarting) must not crash the process.
    pool.on("error", () => undefined);
    return new PostgresDialect({ pool });
  }
  if (target.path !== ":memory:") mkdirSync(path.dirname(path.resolve(target.path)), { recursive: true });
  const database = new Database(target.path);
  try {
    // WAL: a console and a separate `npm run watcher` may share the file; a writer waits for the other.
    database.pragma("journal_mode = WAL");
    database.pragma("busy_timeout = 5000");
    // SQLite's setting for WAL: a crash of the process loses nothing; a power loss may roll back the
    // last commits, each holding its logs with the cursor after them, so the watcher reads them again.
    database.pragma("synchronous = NORMAL");
  } catch (error) {
    database.close();
    throw error;
  }
  // SQLite's own lower() folds A-Z only; Response contains folds every letter, as PostgreSQL's does.
  database.function("lower", { deterministic: true }, (text: unknown) =>
    typeof text === "string" ? text.toLowerCase() : text,
  );
  return new SqliteDialect({ database });
}

/**
 * Two processes starting on one new SQLite file at once may collide: SQLite answers "busy" to one
 * switching the file to WAL, and both may run a migration (SQLite's migrations are not in one
 * transaction). The loser tries again and finds it done. PostgreSQL needs no second try: Kysely's
 * migrator takes a lock there.
 */
const SQLITE_OPEN_ATTEMPTS = 5;

/**
 * Opens the database and runs the migrations. Throws an Error naming DATABASE_URL (or WATCH_DB)
 * when it cannot be reached or migrated; the URL itself is never repeated (it may hold a password).
 */
export async function openDatabase(target: DatabaseTarget): Promise<OpenDatabase> {
  for (let attempt = 1; ; attempt++) {
    let db: StoreDb | undefined;
    try {
      db = new Kysely({ dialect: dialectOf(target) });
      await ping(db);
      const { error } = await new Migrator({ db, provider: migrations }).migrateToLatest();
      if (error) throw error;
      return { db, kind: target.kind };
    } catch (error) {
      await db?.destroy().catch(() => undefined);
      if (target.kind === "sqlite" && attempt < SQLITE_OPEN_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        continue;
      }
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        target.kind === "postgres"
          ? `DATABASE_URL: the watch's PostgreSQL database could not be reached or prepared (${reason}). ` +
              "Check the host, port, user, password and database name, or unset DATABASE_URL to use the embedded database."
          : `WATCH_DB: the embedded database at ${target.path} could not be opened (${reason}). Check the path is writable.`,
        { cause: error },
      );
    }
  }
}

/** True when a query answered: used to tell "the database is back" after an outage. */
export async function ping(db: StoreDb): Promise<void> {
  await sql`select 1`.execute(db);
}
