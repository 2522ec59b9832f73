"use client";

import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { getCoreRowModel, useReactTable, type PaginationState, type Updater } from "@tanstack/react-table";
import { useCallback, useId, useMemo } from "react";
import type { WebhookLog, WebhookLogPage } from "@/lib/domain/hub-schemas";
import { webhookKeys } from "@/lib/domain/query-keys";
import type { PageSize } from "@/lib/domain/log-view";
import { buildLogColumns } from "@/components/logs/columns";
import { LogsDataTable } from "@/components/logs/data-table";
import { LogDialog, preloadLogDetails } from "@/components/logs/log-dialog";
import { LogsPagination } from "@/components/logs/data-table-pagination";
import { LogsToolbar } from "@/components/logs/data-table-toolbar";
import { LogsEmptyState } from "@/components/logs/logs-empty-state";
import { LogsRefreshFailed } from "@/components/logs/logs-errors";
import { RETRY_UNAVAILABLE_REASON } from "@/components/logs/retry-unavailable";
import { setLogView, useLogView } from "@/components/logs/use-log-view";
import { useWebhookLogs } from "@/components/logs/use-webhook-logs";

/** A log that is not on the current page may still be in another cached page (e.g. found by the send follow-up). */
function findCachedLog(queryClient: QueryClient, webhookId: string, logId: string): WebhookLog | null {
  for (const [, page] of queryClient.getQueriesData<WebhookLogPage>({
    queryKey: webhookKeys.logs(webhookId),
  })) {
    const log = page?.data.find((item) => item.id === logId);
    if (log) return log;
  }
  return null;
}

/** The log table with its toolbar, pagination, states, and the details dialog; all state in the URL. */
export function WebhookLogs({
  webhookId,
  autoRefresh,
  onAutoRefreshChange,
  highlightIds,
}: {
  webhookId: string;
  autoRefresh: boolean;
  onAutoRefreshChange: (on: boolean) => void;
  highlightIds: ReadonlySet<string>;
}) {
  const view = useLogView();
  const queryClient = useQueryClient();
  const { query, rows, total, totalPages, error, prefetchStatusViews } = useWebhookLogs(
    webhookId,
    view,
    autoRefresh,
  );
  const tryAgain = () => void query.refetch();

  const openLog = useCallback((logId: string) => setLogView({ log: logId }, { history: "replace" }), []);
  const retryReasonId = useId();
  const columns = useMemo(
    () => buildLogColumns({ onOpen: openLog, retryReasonId }),
    [openLog, retryReasonId],
  );

  const pagination: PaginationState = { pageIndex: view.page - 1, pageSize: view.limit };
  // The console does not use the React Compiler; TanStack Table v8 re-renders through this component's own state.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => row.id,
    manualPagination: true,
    rowCount: total,
    state: { pagination },
    onPaginationChange: (updater: Updater<PaginationState>) => {
      const next = typeof updater === "function" ? updater(pagination) : updater;
      setLogView({ page: next.pageIndex + 1, limit: next.pageSize as PageSize, log: null });
    },
  });

  function closeLog(logId: string) {
    setLogView({ log: null }, { history: "replace" });
    // Back to where the person was: the row's Details button.
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(`[data-details-for="${CSS.escape(logId)}"]`)?.focus(),
    );
  }

  const openLogData = view.log
    ? (rows.find((row) => row.id === view.log) ?? findCachedLog(queryClient, webhookId, view.log))
    : null;

  return (
    <section aria-labelledby="logs-heading" className="min-w-0 space-y-3">
      <div className="flex flex-wrap items-baseline gap-x-3">
        <h2 id="logs-heading" className="text-base font-semibold">
          Delivery logs
        </h2>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Newest first. Open a row to see the response and what its status means.
        </p>
      </div>
      <LogsToolbar
        view={view}
        onStatusChange={(status) => setLogView({ status, page: 1, log: null })}
        onStatusIntent={prefetchStatusViews}
        onPageSizeChange={(size) => table.setPageSize(size)}
        autoRefresh={autoRefresh}
        onAutoRefreshChange={onAutoRefreshChange}
        // Everything about this webhook: its header, this view, and (marked stale) the other views in the cache.
        onRefresh={() => void queryClient.invalidateQueries({ queryKey: webhookKeys.webhook(webhookId) })}
        fetching={query.isFetching}
      />
      {error && query.data ? <LogsRefreshFailed error={error} onTryAgain={tryAgain} /> : null}
      <p id={retryReasonId} className="sr-only">
        {RETRY_UNAVAILABLE_REASON}.
      </p>
      <LogsDataTable
        table={table}
        onOpen={openLog}
        highlightIds={highlightIds}
        busy={query.isPlaceholderData && query.isFetching}
        emptyState={
          <LogsEmptyState
            view={view}
            pending={query.isPending}
            error={query.data ? null : error}
            totalPages={totalPages}
            onTryAgain={tryAgain}
          />
        }
        onIntent={preloadLogDetails}
      />
      <LogsPagination table={table} total={total} />
      {view.log ? (
        <LogDialog
          key={view.log}
          logId={view.log}
          log={openLogData}
          loading={query.isPending || query.isPlaceholderData}
          onClose={() => closeLog(view.log!)}
        />
      ) : null}
    </section>
  );
}
