"use client";

import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from "@tanstack/react-query";
import { getCoreRowModel, useReactTable, type PaginationState, type Updater } from "@tanstack/react-table";
import Link from "next/link";
import { useCallback, useEffect, useId, useMemo, type ReactNode } from "react";
import type { WebhookLog, WebhookLogPage } from "@/lib/domain/hub-schemas";
import { isApiError } from "@/lib/browser/api";
import { logsQueryOptions } from "@/lib/browser/queries";
import { AUTO_REFRESH_MS, webhookKeys } from "@/lib/domain/query-keys";
import { RETRY_UNAVAILABLE_REASON, retryDelivery } from "@/lib/browser/retry";
import { LOG_STATUS_FILTERS, type PageSize } from "@/lib/domain/log-view";
import { buildLogColumns } from "@/components/logs/columns";
import { LogsDataTable } from "@/components/logs/data-table";
import { LogDialog, preloadLogDetails } from "@/components/logs/log-dialog";
import { LogsPagination } from "@/components/logs/data-table-pagination";
import { LogsToolbar } from "@/components/logs/data-table-toolbar";
import { setLogView, useLogView } from "@/components/logs/use-log-view";
import { ErrorPanel } from "@/components/errors/error-panel";

const NO_ROWS: WebhookLog[] = [];

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

/** What ErrorPanel needs of an error besides its message: 500 when it is not the console's own. */
function errorDetails(error: Error) {
  return isApiError(error)
    ? { status: error.status, retryAfter: error.retryAfter }
    : { status: 500, retryAfter: null };
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
  const query = useQuery({
    ...logsQueryOptions(webhookId, view),
    // The current rows stay while the next page loads.
    placeholderData: keepPreviousData,
    refetchInterval: autoRefresh ? AUTO_REFRESH_MS : false,
  });
  const page = query.data;
  const rows = page?.data ?? NO_ROWS;
  const total = page?.pagination.total ?? 0;
  const totalPages = page?.pagination.totalPages ?? 0;

  // Prefetch the next page, so "Next page" shows it at once.
  const { status, limit } = view;
  const pageNumber = view.page;
  useEffect(() => {
    if (!page || query.isPlaceholderData || pageNumber >= totalPages) return;
    void queryClient.prefetchQuery(
      logsQueryOptions(webhookId, { status, limit, page: pageNumber + 1, log: null }),
    );
  }, [page, query.isPlaceholderData, pageNumber, totalPages, status, limit, queryClient, webhookId]);

  // When the pointer or focus reaches the Status filter, fetch the first page of each other
  // status, so choosing one shows its rows at once. Once, not retried, and not while the hub is
  // failing this view: a hover must not add load to a hub in trouble.
  const failing = query.isError;
  const prefetchStatusViews = useCallback(() => {
    if (failing) return;
    for (const other of [null, ...LOG_STATUS_FILTERS]) {
      if (other !== status)
        void queryClient.prefetchQuery({
          ...logsQueryOptions(webhookId, { status: other, limit, page: 1, log: null }),
          retry: false,
        });
    }
  }, [queryClient, webhookId, status, limit, failing]);

  const openLog = useCallback((logId: string) => setLogView({ log: logId }, { history: "replace" }), []);
  const retry = useMutation({
    mutationFn: (log: WebhookLog) => retryDelivery(webhookId, log.id),
    // The new attempt shows up as a new log, and may change the error counter.
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.webhook(webhookId) }),
  });
  const retryReasonId = useId();
  const onRetry = retry.mutate;
  const columns = useMemo(
    () => buildLogColumns({ onOpen: openLog, onRetry, retryReasonId }),
    [openLog, onRetry, retryReasonId],
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
  const error = query.error;

  let emptyState: ReactNode;
  if (query.isPending) {
    emptyState = <p role="status">Loading deliveries…</p>;
  } else if (error && !page) {
    emptyState = (
      <div className="mx-auto max-w-xl text-left">
        <ErrorPanel
          role="alert"
          {...errorDetails(error)}
          message={error.message}
          actions={
            <>
              <button type="button" className="btn btn-primary" onClick={() => void query.refetch()}>
                Try again
              </button>
              <Link href="/webhooks" className="btn-link">
                Open another webhook
              </Link>
            </>
          }
        />
      </div>
    );
  } else if (totalPages > 0 && view.page > totalPages) {
    emptyState = (
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
  } else if (view.status) {
    emptyState = (
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
  } else {
    emptyState = (
      <p>
        No deliveries recorded for this webhook yet. Send a test message to cause one; it appears here within
        seconds.
      </p>
    );
  }

  return (
    <section aria-labelledby="logs-heading" className="space-y-3">
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
      {error && page ? (
        <ErrorPanel
          {...errorDetails(error)}
          message={`Could not refresh the logs: ${error.message} The rows below are from the last successful load.`}
          role="alert"
          actions={
            <button type="button" className="btn btn-secondary" onClick={() => void query.refetch()}>
              Try again
            </button>
          }
        />
      ) : null}
      <p id={retryReasonId} className="sr-only">
        {RETRY_UNAVAILABLE_REASON}.
      </p>
      {retry.error ? (
        <ErrorPanel
          {...errorDetails(retry.error)}
          message={`Retry failed: ${retry.error.message}`}
          role="alert"
        />
      ) : null}
      <LogsDataTable
        table={table}
        onOpen={openLog}
        highlightIds={highlightIds}
        busy={query.isPlaceholderData && query.isFetching}
        emptyState={emptyState}
        onIntent={preloadLogDetails}
      />
      <LogsPagination table={table} total={total} />
      {view.log ? (
        <LogDialog
          key={view.log}
          logId={view.log}
          log={openLogData}
          loading={query.isPending || query.isPlaceholderData}
          onRetry={onRetry}
          onClose={() => closeLog(view.log!)}
        />
      ) : null}
    </section>
  );
}
