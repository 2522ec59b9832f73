/**
 * What the overview hands the browser (no key, ever), and the filters a person sets in its URL
 * (`/overview?failing=1&app=<id>&q=<text>`). The rows come worst first from the store.
 */
import type { ApplicationSummary } from "@/lib/domain/applications";
import type { OverviewRow, WatcherHealth } from "@/lib/domain/watch/overview";

export interface OverviewAnswer {
  /** The session's applications (names for the rows' `appId`, and the Application filter). */
  applications: ApplicationSummary[];
  rows: OverviewRow[];
  health: WatcherHealth;
  /** When the answer was made (ISO). */
  at: string;
}

/** A row's webhook is failing now: its newest delivery failed. */
export function isFailing(row: OverviewRow): boolean {
  return row.failingStreak !== null;
}

export interface OverviewFilters {
  failing: boolean;
  /** One application's id, or null: all. */
  app: string | null;
  /** Text over names and endpoints. */
  q: string;
}

export function filterRows(rows: OverviewRow[], filters: OverviewFilters): OverviewRow[] {
  const q = filters.q.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (!filters.failing || isFailing(row)) &&
      (!filters.app || row.appId === filters.app) &&
      (!q || row.name.toLowerCase().includes(q) || row.endpoint.toLowerCase().includes(q)),
  );
}
