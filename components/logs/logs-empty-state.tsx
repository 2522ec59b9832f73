import type { ReactNode } from "react";
import { NO_HISTORY_FILTERS, isHistoryView, type LogViewState } from "@/lib/domain/log-view";
import { setLogView } from "@/components/logs/use-log-view";
import { LogsLoadFailed } from "@/components/logs/logs-errors";

/** What the table body says when it has no rows: loading, failed, past the last page, filtered out, or none yet. */
export function LogsEmptyState({
  view,
  pending,
  error,
  totalPages,
  onTryAgain,
}: {
  view: LogViewState;
  pending: boolean;
  /** Set only when there are no rows to show either. */
  error: Error | null;
  totalPages: number;
  onTryAgain: () => void;
}): ReactNode {
  if (pending) return <p role="status">Loading deliveries…</p>;
  if (error) return <LogsLoadFailed error={error} onTryAgain={onTryAgain} />;
  if (totalPages > 0 && view.page > totalPages) {
    return (
      <div className="space-y-2">
        <p>
          There is no page {view.page}: this view has {totalPages} {totalPages === 1 ? "page" : "pages"}.
        </p>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => setLogView({ page: totalPages, log: null })}
        >
          Go to the last page
        </button>
      </div>
    );
  }
  if (isHistoryView(view)) {
    return (
      <div className="space-y-2">
        <p>No deliveries match these filters in what was scanned.</p>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => setLogView({ ...NO_HISTORY_FILTERS, page: 1, log: null })}
        >
          Clear the filters
        </button>
      </div>
    );
  }
  if (view.status) {
    return (
      <div className="space-y-2">
        <p>No {view.status === "Failed" ? "failed" : "successful"} deliveries for this webhook.</p>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => setLogView({ status: null, page: 1, log: null })}
        >
          Show all deliveries
        </button>
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
