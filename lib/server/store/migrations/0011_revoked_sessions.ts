import type { Kysely, Migration } from "kysely";

/**
 * Migration 0011, frozen: sessions signed out before they expired, by session id, each kept until
 * the cookie would have expired (`until`, epoch ms; rows past it are pruned). Without Redis, this
 * is where every instance, and the next start, learns of a sign-out
 * (lib/server/shared-state/database-revocations.ts).
 */
export const migration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async up(db: Kysely<any>) {
    await db.schema
      .createTable("revoked_sessions")
      .addColumn("session_id", "text", (c) => c.primaryKey())
      .addColumn("until", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("revoked_sessions_until").on("revoked_sessions").column("until").execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async down(db: Kysely<any>) {
    await db.schema.dropTable("revoked_sessions").execute();
  },
};
