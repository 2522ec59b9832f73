/**
 * What the overview hands the browser (no key, ever), and the view a person sets in its URL
 * (`/overview?failing=true&app=<id>&q=<text>&page=2`). The rows come worst first from the store;
 * the server filters them and sends one page.
 */
import type { ApplicationSummary } from "@/lib/domain/applications";
import { isFailing, type OverviewRow, type WatcherHealth } from "@/lib/domain/watch/overview";

/** A row's webhook is failing now: its newest delivery failed, outside a maintenance window. */
export { isFailing };

export interface OverviewAnswer {
  /** The session's applications (names for the rows' `appId`, and the Application filter). */
  applications: ApplicationSummary[];
  /** The page's rows, worst first. */
  rows: OverviewRow[];
  /** How many webhooks the session's applications watch, whatever the filters. */
  watched: number;
  /** Every webhook the filters leave, over all pages, worst first (the failure issues shown are theirs). */
  matching: string[];
  page: { number: number; count: number; size: number };
  health: WatcherHealth;
  /** When the answer was made (ISO). */
  at: string;
}

export interface OverviewFilters {
  failing: boolean;
  /** One application's id, or null: all. */
  app: string | null;
  /** Text over names and endpoints. */
  q: string;
}

export interface OverviewView extends OverviewFilters {
  /** 1-based; past the last page means the last one. */
  page: number;
}

/** Rows a page of the overview shows: enough to see every failing webhook of a team at once, few enough to render fast. */
export const OVERVIEW_PAGE_SIZE = 50;

/** The rows the view leaves (worst-first order kept), and the page of them it asks for. */
export function overviewPage(rows: OverviewRow[], view: OverviewView, size = OVERVIEW_PAGE_SIZE) {
  const matched = filterRows(rows, view);
  const count = Math.max(1, Math.ceil(matched.length / size));
  const number = Math.min(Math.max(1, Math.trunc(view.page) || 1), count);
  return {
    rows: matched.slice((number - 1) * size, number * size),
    watched: rows.length,
    matching: matched.map((row) => row.webhookId),
    page: { number, count, size },
  };
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
