"use client";

import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { getCoreRowModel, useReactTable, type PaginationState, type Updater } from "@tanstack/react-table";
import dynamic from "next/dynamic";
import { useSearchParams } from "next/navigation";
import { useCallback, useId, useMemo, useState, type ReactNode } from "react";
import { foundLogQueryOptions } from "@/lib/browser/queries";
import type { FieldErrors } from "@/lib/domain/api-error";
import type { WebhookLog, WebhookLogPage } from "@/lib/domain/hub-schemas";
import { webhookKeys } from "@/lib/domain/query-keys";
import {
  HISTORY_FILTERS,
  ignoredParams,
  unknownIssueParam,
  type LogViewState,
  type PageSize,
} from "@/lib/domain/search-params";
import { buildLogColumns } from "@/components/logs/columns";
import { LogsDataTable } from "@/components/logs/data-table";
import { LogDialog } from "@/components/logs/log-dialog";
import { Pager } from "@/components/ui/pager";
import { LogsToolbar } from "@/components/logs/data-table-toolbar";
import { LogsEmptyState } from "@/components/logs/logs-empty-state";
import { LogsRefreshFailed } from "@/components/logs/logs-errors";
import { IgnoredParamsNotice } from "@/components/logs/ignored-params-notice";
import { IssueFilterChip } from "@/components/issues/issue-filter-chip";
import { issuesQueryOptions } from "@/components/issues/issues-api";
import { RETRY_UNAVAILABLE_REASON } from "@/components/logs/retry-unavailable";
import { useLogView } from "@/components/logs/use-log-view";
import { useWebhookLogs } from "@/components/logs/use-webhook-logs";
import { useHistoryLogs } from "@/components/logs/use-history-logs";
import { PartBoundary, PartUnavailable } from "@/components/ui/part-boundary";
import { HISTORY_FILTERS_ID, LogTableKeys } from "@/components/shortcuts/page-keys";

/** Filters over the whole history and Export: their own chunk, loaded when their section is first opened. */
const HistoryTools = dynamic(() => import("@/components/history/history-tools"), {
  ssr: false,
  loading: () => <p className="text-sm">Loading the filters…</p>,
});
/** What a filtered view covers: its own chunk, loaded when a view has history filters. */
const HistoryCoverage = dynamic(
  () => import("@/components/history/history-coverage").then((loaded) => loaded.HistoryCoverage),
  { loading: () => <p className="text-sm">Scanning the history…</p> },
);

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

/** The history filters of a view, as one text: what the filter form was filled from. */
function filtersKey(view: LogViewState): string {
  return HISTORY_FILTERS.map((name) => view[name] ?? "").join("|");
}

/** The log table with its toolbar, pagination, states, and the details dialog; all state in the URL. */
export function WebhookLogs({
  webhookId,
  autoRefresh,
  onAutoRefreshChange,
  highlightIds,
  findBox,
}: {
  webhookId: string;
  autoRefresh: boolean;
  onAutoRefreshChange: (on: boolean) => void;
  highlightIds: ReadonlySet<string>;
  findBox: ReactNode;
}) {
  const [urlView, setView] = useLogView();
  // An issue ID that is none of this webhook's issues is left out of the view, and said so, as an
  // unreadable parameter is. The history waits for the issues, so it never asks for an unknown one;
  // if they cannot be read, the history route says why.
  const issues = useQuery({ ...issuesQueryOptions(webhookId), enabled: urlView.issue !== null });
  const issue = issues.data?.find((candidate) => candidate.id === urlView.issue);
  const unknownIssue = urlView.issue !== null && issues.data !== undefined && !issue;
  const issuePending = urlView.issue !== null && issues.isPending;
  const view = unknownIssue ? { ...urlView, issue: null } : urlView;
  const ignored = [
    ...ignoredParams(useSearchParams()),
    ...(unknownIssue ? [unknownIssueParam(urlView.issue!)] : []),
  ];
  // The filters render once their section is first opened (two date inputs cost a long task on a
  // slow phone), and stay, so closing it keeps what was typed.
  const [toolsOpened, setToolsOpened] = useState(false);
  // What the filter form refused, for the filters it was filled from: while it stands, no row is
  // shown as the answer to what was typed.
  const [refused, setRefused] = useState<{ filters: string; errors: FieldErrors } | null>(null);
  const draftErrors = refused?.filters === filtersKey(view) ? refused.errors : null;
  const queryClient = useQueryClient();
  const history = useHistoryLogs(webhookId, view, !issuePending);
  const api = useWebhookLogs(webhookId, view, autoRefresh, !history.active);
  const { query, prefetchStatusViews } = api;
  const answer = history.active ? history : api;
  const rows = draftErrors ? NO_ROWS : answer.rows;
  const { total, totalPages } = answer;
  const scanning = history.scan.status === "running";
  const error = history.active ? (history.scan.status === "failed" ? history.scan.error : null) : api.error;
  const hasRows = history.active ? history.result !== null : query.data !== undefined;
  const tryAgain = history.active ? history.scan.rerun : () => void query.refetch();

  const openLog = useCallback(
    (logId: string) => void setView({ log: logId }, { history: "replace" }),
    [setView],
  );
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
      void setView({ page: next.pageIndex + 1, limit: next.pageSize as PageSize, log: null });
    },
  });

  function closeLog(logId: string) {
    void setView({ log: null }, { history: "replace" });
    // Back to where the person was: the row's Details button.
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(`[data-details-for="${CSS.escape(logId)}"]`)?.focus(),
    );
  }

  const onPage = view.log
    ? (answer.rows.find((row) => row.id === view.log) ?? findCachedLog(queryClient, webhookId, view.log))
    : null;
  const pageLoading = history.active ? scanning : query.isPending || query.isPlaceholderData;
  // A `?log=` link whose delivery is on no loaded page (newer ones pushed it on): scan for it.
  const found = useQuery({
    ...foundLogQueryOptions(webhookId, view.log ?? ""),
    enabled: view.log !== null && !onPage && !pageLoading,
  });
  const openLogData = onPage ?? found.data ?? null;

  return (
    // No Suspense boundary around the rows: React streams a boundary of this size (20 rows are more
    // than its 12.8 kB chunk) after the shell and shows it later, so the rows came ~0.5 s after the
    // page and pushed the form below them down (layout shift 0.23; Lighthouse desktop 86 → 99).
    <section aria-labelledby="logs-heading" className="min-w-0 space-y-3">
      <div className="flex flex-wrap items-baseline gap-x-3">
        <h2 id="logs-heading" className="text-base font-semibold">
          Delivery logs
        </h2>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Newest first. Open a row to see the response and what its status means.
        </p>
        <div className="ml-auto">
          <LogTableKeys />
        </div>
      </div>
      {ignored.length > 0 ? (
        <IgnoredParamsNotice
          ignored={ignored}
          onRemove={() => void setView(Object.fromEntries(ignored.map(({ name }) => [name, null])))}
        />
      ) : null}
      <LogsToolbar
        view={view}
        onStatusChange={(status) => void setView({ status, page: null, log: null })}
        onStatusIntent={prefetchStatusViews}
        onPageSizeChange={(size) => table.setPageSize(size)}
        autoRefresh={autoRefresh}
        onAutoRefreshChange={onAutoRefreshChange}
        // Everything about this webhook: its header, this view, and (marked stale) the other views in the cache.
        onRefresh={() => {
          void queryClient.invalidateQueries({ queryKey: webhookKeys.webhook(webhookId) });
          if (history.active) history.scan.rerun();
        }}
        fetching={history.active ? scanning : query.isFetching}
      />
      {view.issue ? (
        <IssueFilterChip issue={issue} onClear={() => void setView({ issue: null, page: null, log: null })} />
      ) : null}
      <details
        id={HISTORY_FILTERS_ID}
        className="card px-3 py-2"
        open={history.active || undefined}
        onToggle={(event) => {
          if (event.currentTarget.open) setToolsOpened(true);
        }}
      >
        <summary className="cursor-pointer text-sm font-medium" aria-keyshortcuts="f">
          Filter the whole history (HTTP status, time, response text) and export
        </summary>
        <div className="mt-3">
          {toolsOpened || history.active ? (
            <PartBoundary fallback={<PartUnavailable what="history filters" />}>
              <HistoryTools
                key={filtersKey(view)}
                webhookId={webhookId}
                view={view}
                errors={draftErrors ?? {}}
                onChecked={(errors) => setRefused(errors && { filters: filtersKey(view), errors })}
              />
            </PartBoundary>
          ) : (
            <p className="text-sm">Loading the filters…</p>
          )}
        </div>
      </details>
      {findBox}
      {history.active && !draftErrors ? (
        <PartBoundary fallback={<PartUnavailable what="scan's progress view" />}>
          <HistoryCoverage
            scan={history.scan}
            result={history.result}
            onRerun={history.scan.rerun}
            onCancel={history.scan.cancel}
          />
        </PartBoundary>
      ) : error && hasRows && !draftErrors ? (
        <LogsRefreshFailed error={error} onTryAgain={tryAgain} />
      ) : null}
      <p id={retryReasonId} className="sr-only">
        {RETRY_UNAVAILABLE_REASON}.
      </p>
      <LogsDataTable
        table={table}
        onOpen={openLog}
        highlightIds={highlightIds}
        busy={history.active ? scanning && hasRows : query.isPlaceholderData && query.isFetching}
        emptyState={
          <LogsEmptyState
            view={view}
            refused={draftErrors}
            pending={history.active ? !hasRows && history.scan.status !== "failed" : query.isPending}
            error={hasRows ? null : error}
            totalPages={totalPages}
            onTryAgain={tryAgain}
          />
        }
      />
      {draftErrors ? null : (
        <Pager
          label="Log pages"
          page={pagination.pageIndex + 1}
          pageSize={pagination.pageSize}
          total={total}
          noun="deliveries"
          onPage={(page) => table.setPageIndex(page - 1)}
        />
      )}
      {view.log ? (
        <LogDialog
          key={view.log}
          logId={view.log}
          log={openLogData}
          loading={pageLoading || found.isFetching}
          missing={found.error?.message ?? null}
          onClose={() => closeLog(view.log!)}
        />
      ) : null}
    </section>
  );
}
