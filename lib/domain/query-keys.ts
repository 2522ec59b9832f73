/**
 * The browser's query key of a page of a webhook's logs (the serialized view), and the pace of
 * the webhook page's Auto-refresh and of the polls it makes.
 */
import { logsQueryState } from "@/lib/domain/log-view";
import type { LogViewState } from "@/lib/domain/search-params";

/** How often the webhook page asks the server for its answer again when Auto-refresh is on. */
export const AUTO_REFRESH_MS = 5000;

/**
 * The oldest read an auto-refresh poll may be answered from: half a second less than the
 * interval, so one viewer's poll never gets its own previous answer back (it would see the same
 * rows for 10 s), while ten viewers of one webhook still cost about one call per interval.
 */
export const POLL_REUSE_MS = AUTO_REFRESH_MS - 500;

export const webhookKeys = {
  logPage: (webhookId: string, state: LogViewState) =>
    ["webhooks", webhookId, "logs", logsQueryState(state)] as const,
};

/**
 * Sent by the browser on a poll of the API (never on a fetch a person asked for): the server may
 * then answer from a read of the same key at most POLL_REUSE_MS old.
 */
export const POLL_HEADER = "x-console-poll";
