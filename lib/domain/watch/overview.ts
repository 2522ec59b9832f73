/**
 * What the watch shows, as plain data safe for client components: a watched webhook, one row of
 * the overview, the watcher's health. The store (lib/server/watch/store.ts) produces these.
 */
import type { WebhookMaintenance } from "@/lib/domain/maintenance/view";
import type { HourlyCounts } from "@/lib/domain/watch/hourly-counts";

/** A webhook someone chose to watch, under the application whose key reads it. */
export interface Watch {
  webhookId: string;
  /** The console's id of the application (lib/server/session/key-hash.ts `applicationId`). */
  appId: string;
  /** Given by a person (the API names no webhook): a customer's name, say. */
  name: string;
  endpoint: string;
  eventType: string;
  /** ISO time the watch was added. */
  createdAt: string;
}

/** Why the last poll of a webhook failed (its AppError code and message), and when. */
export interface PollError {
  code: string;
  message: string;
  at: string;
}

/** One row of the overview: one watched webhook. */
export interface OverviewRow {
  webhookId: string;
  appId: string;
  name: string;
  endpoint: string;
  /** From the latest poll; null until the first poll answered. */
  active: boolean | null;
  numberOfErrors: number | null;
  /** numberOfErrors now minus 24 h ago (or since the watch began, if later); null before the first poll. */
  errorsChange: number | null;
  /** Attempts of the last 24 h, by hour, oldest first (the last one the current hour). */
  hours: HourlyCounts;
  attempts24h: number;
  failed24h: number;
  /** 0..100, one decimal; null when there was no attempt in 24 h. */
  successRate24h: number | null;
  /**
   * The failures in a row since the newest success, when the newest attempt failed: `since` is
   * the oldest of them, over all stored history (not just 24 h); `atLeast` when the run reaches
   * past what the store holds.
   */
  failingStreak: { since: string; length: number; atLeast: boolean } | null;
  lastSuccess: { at: string; logId: string } | null;
  lastFailure: { at: string; logId: string; statusCode: number } | null;
  /** ISO time of the newest poll that answered: the data is "as of" then. null before the first. */
  asOf: string | null;
  /** The latest poll failed (the data is as of `asOf`); null when it answered. */
  pollError: PollError | null;
  /** The application's stored key was rejected by the hub (or can no longer be opened). */
  keyRejected: boolean;
  /** Its maintenance windows (its own and its application's): in one now, the next; null when it has none. */
  maintenance: WebhookMaintenance | null;
}

/** In a maintenance window now: its failures are expected, so it is not "failing now". */
export function inMaintenance(row: Pick<OverviewRow, "maintenance">): boolean {
  return row.maintenance?.until != null;
}

/** Failing now: its newest delivery failed, outside a maintenance window. */
export function isFailing(row: Pick<OverviewRow, "failingStreak" | "maintenance">): boolean {
  return row.failingStreak !== null && !inMaintenance(row);
}

/** The watcher's own health, over the watches of the given applications. */
export interface WatcherHealth {
  watched: number;
  /** Seconds the most overdue watched webhook is past its planned poll; 0 when on time. */
  lagSeconds: number;
  /** Seconds since the stalest watched webhook's last answered poll; null when none polled yet. */
  oldestDataSeconds: number | null;
  /** Applications whose stored key the hub rejects: their webhooks are not polled until a new key is handed over. */
  keysRejected: string[];
  /** Watched webhooks whose latest poll failed. */
  pollsFailing: number;
  /** Webhooks still filling their history up to the backfill horizon. */
  backfilling: number;
}

/**
 * Worst first: failing now (the longest streak first), then the lowest 24 h success rate, then
 * inactive ones, then by name. A rejected key or a failing poll ranks a row with the failing; a
 * webhook in a maintenance window ranks last, its failures expected.
 */
export function compareOverviewRows(a: OverviewRow, b: OverviewRow): number {
  const rank = (row: OverviewRow) =>
    isFailing(row) || row.keyRejected || row.pollError ? 0 : inMaintenance(row) ? 2 : 1;
  const since = (row: OverviewRow) => (isFailing(row) ? row.failingStreak!.since : "\uffff");
  return (
    rank(a) - rank(b) ||
    since(a).localeCompare(since(b)) ||
    (a.successRate24h ?? 101) - (b.successRate24h ?? 101) ||
    Number(a.active !== false) - Number(b.active !== false) ||
    a.name.localeCompare(b.name) ||
    a.webhookId.localeCompare(b.webhookId)
  );
}
