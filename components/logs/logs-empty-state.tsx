import Link from "next/link";
import { isHistoryView } from "@/lib/domain/log-view";
import type { LogViewState } from "@/lib/domain/search-params";

/** The views a way out of an empty table leads to. */
export interface EmptyStateLinks {
  lastPage: string;
  noFilters: string;
  allStatuses: string;
}

/** What the table body says when a view has no rows: past the last page, filtered out, or none yet. */
export function LogsEmptyState({
  view,
  totalPages,
  links,
}: {
  view: LogViewState;
  totalPages: number;
  links: EmptyStateLinks;
}) {
  if (totalPages > 0 && view.page > totalPages) {
    return (
      <div className="space-y-2">
        <p>
          There is no page {view.page}: this view has {totalPages} {totalPages === 1 ? "page" : "pages"}.
        </p>
        <Link href={links.lastPage} className="btn btn-secondary">
          Go to the last page
        </Link>
      </div>
    );
  }
  if (isHistoryView(view)) {
    return (
      <div className="space-y-2">
        <p>No deliveries match these filters in what was read.</p>
        <Link href={links.noFilters} className="btn btn-secondary">
          Clear the filters
        </Link>
      </div>
    );
  }
  if (view.status) {
    return (
      <div className="space-y-2">
        <p>No {view.status === "Failed" ? "failed" : "successful"} deliveries for this webhook.</p>
        <Link href={links.allStatuses} className="btn btn-secondary">
          Show all deliveries
        </Link>
      </div>
    );
  }
  return (
    <p>
      No deliveries recorded for this webhook yet. Send a test message to cause one; it appears here within
      seconds.
    </p>
  );
}
