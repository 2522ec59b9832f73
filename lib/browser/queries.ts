/**
 * The browser's fetchers of a webhook and its logs, and their `queryOptions`. The server's
 * prefetch fills the same keys (`query-keys.ts`).
 */
import { queryOptions } from "@tanstack/react-query";
import type { Webhook, WebhookLog, WebhookLogPage } from "@/lib/domain/hub-schemas";
import { apiRequest } from "@/lib/browser/api";
import { apiQueryString, toApiQuery } from "@/lib/domain/log-view";
import type { LogViewState } from "@/lib/domain/search-params";
import { AUTO_REFRESH_MS, webhookKeys } from "@/lib/domain/query-keys";

interface FetchOptions {
  signal?: AbortSignal;
  /** An auto-refresh poll (see apiRequest). */
  poll?: boolean;
}

function webhookApiPath(webhookId: string): string {
  return `/api/webhooks/${encodeURIComponent(webhookId)}`;
}

export function fetchWebhook(webhookId: string, options: FetchOptions = {}): Promise<Webhook> {
  return apiRequest<Webhook>(webhookApiPath(webhookId), options);
}

export function fetchLogPage(
  webhookId: string,
  view: LogViewState,
  options: FetchOptions = {},
): Promise<WebhookLogPage> {
  const query = apiQueryString(toApiQuery(view));
  return apiRequest<WebhookLogPage>(`${webhookApiPath(webhookId)}/logs?${query}`, options);
}

export function webhookQueryOptions(webhookId: string) {
  return queryOptions({
    queryKey: webhookKeys.webhook(webhookId),
    queryFn: ({ signal }) => fetchWebhook(webhookId, { signal }),
  });
}

export function logsQueryOptions(webhookId: string, view: LogViewState) {
  return queryOptions({
    queryKey: webhookKeys.logPage(webhookId, view),
    staleTime: AUTO_REFRESH_MS,
    queryFn: ({ signal }) => fetchLogPage(webhookId, view, { signal }),
  });
}

/** What the history's find route answers. */
export interface FoundDelivery {
  log: WebhookLog;
  /** Where it is, newest first (0 = the newest delivery). */
  position: number;
  read: number;
  total: number;
}

/** One delivery wherever it is in the history: `q` is a log ID, a message ID or a console link. */
export function findDelivery(webhookId: string, q: string, signal?: AbortSignal): Promise<FoundDelivery> {
  return apiRequest<FoundDelivery>(
    `${webhookApiPath(webhookId)}/history/find?${new URLSearchParams({ q }).toString()}`,
    { signal },
  );
}

/** A delivery a `?log=` link names that is on no loaded page: found by a scan, once. */
export function foundLogQueryOptions(webhookId: string, logId: string) {
  return queryOptions({
    queryKey: webhookKeys.found(webhookId, logId),
    staleTime: Infinity,
    retry: false,
    queryFn: async ({ signal }) => (await findDelivery(webhookId, logId, signal)).log,
  });
}
