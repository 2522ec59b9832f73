/**
 * The sandbox's SQLite database: opening it (WAL, foreign keys) and its schema, migrated by
 * `PRAGMA user_version`. Times are ISO 8601 UTC strings with milliseconds, so text order is time order.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

export type Db = Database.Database;

/** Each entry moves the schema from version i to i + 1. Append; never edit a shipped step. */
const MIGRATIONS: readonly string[] = [
  `
  -- Facts about this database, such as which application is the demo one.
  CREATE TABLE meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
  );

  CREATE TABLE applications (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    -- SHA-256 (hex) of the API key; the key itself is never stored.
    api_key_hash  TEXT NOT NULL UNIQUE,
    created_date  TEXT NOT NULL
  );

  CREATE TABLE channels (
    id              TEXT PRIMARY KEY,
    application_id  TEXT NOT NULL REFERENCES applications(id),
    kind            TEXT NOT NULL,
    created_date    TEXT NOT NULL
  );
  CREATE INDEX channels_by_application ON channels(application_id);

  CREATE TABLE webhooks (
    id                TEXT PRIMARY KEY,
    application_id    TEXT NOT NULL REFERENCES applications(id),
    endpoint          TEXT NOT NULL,
    event_type        TEXT NOT NULL,
    active            INTEGER NOT NULL CHECK (active IN (0, 1)),
    secret            TEXT NOT NULL,
    description       TEXT,
    -- Kept with every log written, in the same transaction: counts without COUNT(*).
    number_of_errors  INTEGER NOT NULL DEFAULT 0,
    log_count         INTEGER NOT NULL DEFAULT 0,
    -- Demo data only: the label shown by /_sandbox/demo, and the receiver route this webhook
    -- points at (its endpoint is rebuilt from the listening port at start; cleared when the
    -- endpoint is changed by hand).
    demo_label        TEXT,
    demo_receiver     TEXT,
    created_date      TEXT NOT NULL,
    updated_date      TEXT NOT NULL
  );
  CREATE INDEX webhooks_by_application ON webhooks(application_id, created_date);

  CREATE TABLE messages (
    id              TEXT PRIMARY KEY,
    application_id  TEXT NOT NULL REFERENCES applications(id),
    channel_id      TEXT NOT NULL REFERENCES channels(id),
    channel_kind    TEXT NOT NULL,
    recipient       TEXT NOT NULL,
    content         TEXT NOT NULL, -- JSON
    created_date    TEXT NOT NULL
  );

  -- One row per (message, webhook) to call. 'queued' until its log is written, then 'done',
  -- in the same transaction as the log. A crash leaves it 'queued': it is sent again at start.
  CREATE TABLE deliveries (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id    TEXT NOT NULL REFERENCES messages(id),
    webhook_id    TEXT NOT NULL REFERENCES webhooks(id),
    state         TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'done')),
    attempts      INTEGER NOT NULL DEFAULT 0,
    created_date  TEXT NOT NULL,
    UNIQUE (message_id, webhook_id)
  );
  CREATE INDEX deliveries_queued ON deliveries(webhook_id, id) WHERE state = 'queued';

  CREATE TABLE webhook_logs (
    seq            INTEGER PRIMARY KEY, -- insertion order: the tiebreak of "newest first"
    id             TEXT NOT NULL UNIQUE,
    webhook_id     TEXT NOT NULL REFERENCES webhooks(id),
    -- NULL for seeded history; UNIQUE so a delivery can never be logged twice.
    delivery_id    INTEGER UNIQUE REFERENCES deliveries(id),
    message_id     TEXT REFERENCES messages(id),
    status_code    INTEGER NOT NULL,
    response_body  TEXT NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('Success', 'Failed')),
    send_at        TEXT NOT NULL,
    created_date   TEXT NOT NULL
  );
  CREATE INDEX webhook_logs_by_webhook ON webhook_logs(webhook_id, created_date DESC, seq DESC);
  CREATE INDEX webhook_logs_by_webhook_status ON webhook_logs(webhook_id, status, created_date DESC, seq DESC);
  `,
];

const SCHEMA_VERSION = MIGRATIONS.length;

/** Opens (creating the folder and file when needed) and migrates the database. */
export function openDatabase(dbPath: string): Db {
  if (dbPath !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true });
  const db = new Database(dbPath);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function migrate(db: Db): void {
  const current = db.pragma("user_version", { simple: true });
  if (typeof current !== "number") throw new Error("could not read the database's user_version");
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `The sandbox database has schema version ${current}, newer than this code knows (${SCHEMA_VERSION}). ` +
        "Use a newer checkout, or point SANDBOX_DB at another file.",
    );
  }
  for (let version = current; version < SCHEMA_VERSION; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version] ?? "");
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
