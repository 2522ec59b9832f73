import "server-only";
import type { Sealer } from "@/lib/server/watch/seal";
import type { WatchDb } from "@/lib/server/watch/schema";

/** What the store's query modules share: the database, which kind it is, and the key sealer. */
export interface StoreContext {
  db: WatchDb;
  kind: "postgres" | "sqlite";
  sealer: Sealer;
  /** Stored bytes of a response body (WATCH_BODY_CAP_BYTES). */
  bodyCapBytes: number;
  /** Successful deliveries in a row that resolve a failure issue, and end an alert incident (WATCH_ISSUE_RESOLVE_AFTER). */
  issueResolveAfter: number;
}

export const toIso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : toIso(ms));
