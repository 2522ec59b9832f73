import type { ReactNode } from "react";
import type { FieldErrors } from "@/lib/domain/api-error";
import { QUESTION_LABELS } from "@/lib/domain/inputs/history-filters";
import { isHistoryView } from "@/lib/domain/log-view";
import { NO_HISTORY_FILTERS, type LogViewState } from "@/lib/domain/search-params";
import { useLogView } from "@/components/logs/use-log-view";
import { LogsLoadFailed } from "@/components/logs/logs-errors";

/**
 * What the table body says when it has no rows: the filters typed were refused, loading, failed,
 * past the last page, filtered out, or none yet.
 */
export function LogsEmptyState({
  view,
  refused,
  pending,
  error,
  totalPages,
  onTryAgain,
}: {
  view: LogViewState;
  /** What the filter form refused: no rows are shown until it is fixed. */
  refused: FieldErrors | null;
  pending: boolean;
  /** Set only when there are no rows to show either. */
  error: Error | null;
  totalPages: number;
  onTryAgain: () => void;
}): ReactNode {
  const [, setView] = useLogView();
  if (refused) {
    const fields = Object.keys(refused).map(
      (name) => QUESTION_LABELS[name as keyof typeof QUESTION_LABELS] ?? name,
    );
    return (
      <p role="status">
        No results shown: the filters above were not applied. Fix {fields.join(" and ")}, then apply them
        again.
      </p>
    );
  }
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
          onClick={() => void setView({ page: totalPages, log: null })}
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
          onClick={() => void setView({ ...NO_HISTORY_FILTERS, page: null, log: null })}
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
          onClick={() => void setView({ status: null, page: null, log: null })}
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
