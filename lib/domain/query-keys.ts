/** The pace of the webhook page's Auto-refresh, and of the polls it makes. */

/** How often the webhook page asks the server for its answer again when Auto-refresh is on. */
export const AUTO_REFRESH_MS = 5000;

/**
 * The oldest read an auto-refresh poll may be answered from: half a second less than the
 * interval, so one viewer's poll never gets its own previous answer back (it would see the same
 * rows for 10 s), while ten viewers of one webhook still cost about one call per interval.
 */
export const POLL_REUSE_MS = AUTO_REFRESH_MS - 500;

/**
 * Sent by the browser on a poll of the API (never on a fetch a person asked for): the server may
 * then answer from a read of the same key at most POLL_REUSE_MS old, and a 401 ends no session.
 */
export const POLL_HEADER = "x-console-poll";
