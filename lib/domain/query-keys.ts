/**
 * Query keys of a webhook and its logs, shared by the server's prefetch and the browser's
 * queries so both sides fill the same cache entries. A logs key is the serialized URL state.
 */
import { logsQueryState } from "@/lib/domain/log-view";
import type { LogViewState } from "@/lib/domain/search-params";

/**
 * How often the log view refreshes itself when Auto-refresh is on, and how long a fetched page of
 * logs counts as fresh: a view older than this (a page prefetched a while ago, one seen before)
 * shows its cached rows at once and is fetched again in the background.
 */
export const AUTO_REFRESH_MS = 5000;

/**
 * The oldest read an auto-refresh poll may be answered from: half a second less than the
 * interval, so one viewer's poll never gets its own previous answer back (it would see the same
 * rows for 10 s), while ten viewers of one webhook still cost about one call per interval.
 */
export const POLL_REUSE_MS = AUTO_REFRESH_MS - 500;

export const webhookKeys = {
  webhook: (webhookId: string) => ["webhooks", webhookId] as const,
  logs: (webhookId: string) => ["webhooks", webhookId, "logs"] as const,
  /** One delivery found in the history (Find, or a `?log=` link whose page has moved). */
  found: (webhookId: string, logId: string) => ["webhooks", webhookId, "found", logId.toLowerCase()] as const,
  logPage: (webhookId: string, state: LogViewState) =>
    ["webhooks", webhookId, "logs", logsQueryState(state)] as const,
};

/**
 * Sent by the browser on an auto-refresh poll (never on a fetch a person asked for): the server
 * may then answer from a read of the same key at most POLL_REUSE_MS old.
 */
export const POLL_HEADER = "x-console-poll";
