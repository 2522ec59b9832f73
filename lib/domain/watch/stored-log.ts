/**
 * A delivery log as the watch's store keeps it, and what the store can say about how much of a
 * webhook's history it holds. Plain data, safe for client components.
 */
import type { WebhookLog } from "@/lib/domain/hub-schemas";

/**
 * A stored log, in the API's shape (so the log table and exports take it as is), with the
 * response body cut at the store's cap: `responseBodySize` is its full size in bytes (UTF-8) and
 * `responseBodySha256` the hex SHA-256 of the whole body.
 */
export type StoredLog = WebhookLog & {
  responseBodySize: number;
  responseBodySha256: string;
  responseBodyTruncated: boolean;
};

/** How much of a watched webhook's history the store holds, and how fresh it is. */
export interface StoreCoverage {
  /**
   * ISO time from which the store holds every log of the webhook (within retention); null when
   * it holds all of it since the first log. A question reaching before this needs the scan.
   */
  completeFrom: string | null;
  /** Still filling its history up to the backfill horizon. */
  backfilling: boolean;
  /** ISO time of the newest answered poll: the stored data is as of then. null before the first. */
  asOf: string | null;
  storedLogs: number;
}

/** A change of the webhook seen by the watcher: `active` flipped, or `numberOfErrors` moved. */
export interface TimelineEvent {
  at: string;
  kind: "active" | "errors";
  active: boolean;
  numberOfErrors: number;
  /** The value before: `active` for an "active" event, numberOfErrors for an "errors" one; null on the first poll. */
  previous: boolean | number | null;
}

/** Which timeline events to read: seen at or after `from`, at or before `to` (epoch ms), at most `limit`. */
export interface TimelineRange {
  from?: number | null;
  to?: number | null;
  limit?: number;
}
