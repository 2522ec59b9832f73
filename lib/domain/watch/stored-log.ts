/**
 * A delivery log as the console's copy keeps it, and the webhook's changes a watch saw. Plain
 * data, safe for client components.
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
