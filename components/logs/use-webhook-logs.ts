import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { fetchLogPage, logsQueryOptions } from "@/lib/browser/queries";
import { useAutoRefresh } from "@/lib/browser/use-auto-refresh";
import { logsQueryState } from "@/lib/domain/log-view";
import { DEFAULT_LOG_VIEW, LOG_STATUS_FILTERS, type LogViewState } from "@/lib/domain/search-params";
import { webhookKeys } from "@/lib/domain/query-keys";

const NO_ROWS: WebhookLog[] = [];

/**
 * The page of logs a view names, and what keeps it quick and current: the previous rows stay
 * while the next ones load, the next page is prefetched, the other statuses are prefetched on
 * intent, and auto-refresh polls the view. Off (`enabled` false) while a history scan answers the view.
 */
export function useWebhookLogs(
  webhookId: string,
  view: LogViewState,
  autoRefresh: boolean,
  enabled: boolean,
) {
  const queryClient = useQueryClient();
  const query = useQuery({
    ...logsQueryOptions(webhookId, view),
    placeholderData: keepPreviousData,
    enabled,
  });
  const page = query.data;
  const totalPages = page?.pagination.totalPages ?? 0;

  const pollFailure = useAutoRefresh(
    autoRefresh && enabled,
    `${webhookId}?${logsQueryState(view)}`,
    async (signal) => {
      const fresh = await fetchLogPage(webhookId, view, { signal, poll: true });
      queryClient.setQueryData(webhookKeys.logPage(webhookId, view), fresh);
    },
  );

  // Prefetch the next page, so "Next page" shows it at once. In a task of its own: after a click
  // React runs effects in the click's task, and the rows on screen must not wait for this request.
  const { status, limit, page: pageNumber } = view;
  useEffect(() => {
    if (!enabled || !page || query.isPlaceholderData || pageNumber >= totalPages) return;
    const timer = setTimeout(() => {
      void queryClient.prefetchQuery(
        logsQueryOptions(webhookId, { ...DEFAULT_LOG_VIEW, status, limit, page: pageNumber + 1 }),
      );
    }, 0);
    return () => clearTimeout(timer);
  }, [enabled, page, query.isPlaceholderData, pageNumber, totalPages, status, limit, queryClient, webhookId]);

  // When the pointer or focus reaches the Status filter, fetch the first page of each other
  // status, so choosing one shows its rows at once. Once, not retried, and not while the hub is
  // failing this view: a hover must not add load to a hub in trouble.
  const failing = query.isError || !enabled;
  const prefetchStatusViews = useCallback(() => {
    if (failing) return;
    for (const other of [null, ...LOG_STATUS_FILTERS]) {
      if (other !== status)
        void queryClient.prefetchQuery({
          ...logsQueryOptions(webhookId, { ...DEFAULT_LOG_VIEW, status: other, limit }),
          retry: false,
        });
    }
  }, [queryClient, webhookId, status, limit, failing]);

  return {
    query,
    rows: page?.data ?? NO_ROWS,
    total: page?.pagination.total ?? 0,
    totalPages,
    /** The last failure of this view's fetch, or of a poll since the last success. */
    error: query.error ?? (pollFailure && pollFailure.at > query.dataUpdatedAt ? pollFailure.error : null),
    prefetchStatusViews,
  };
}
