import type { Kysely, Migration } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Find across reaches a log id through the primary key, one probe per watched webhook of the
 * session's applications (find-across.ts): the index on the id alone was one more random insert
 * for every stored log.
 */
export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema.dropIndex("watch_logs_id").execute();
  },
  async down(db: AnyDb) {
    await db.schema.createIndex("watch_logs_id").on("watch_logs").column("id").execute();
  },
};
