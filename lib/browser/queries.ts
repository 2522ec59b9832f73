/**
 * `queryOptions` builders for a webhook and its logs: the browser's queries, which call the
 * console's own API. The server's prefetch uses the same keys (`query-keys.ts`).
 */
import { queryOptions } from "@tanstack/react-query";
import type { Webhook, WebhookLogPage } from "@/lib/domain/hub-schemas";
import { apiRequest } from "@/lib/browser/api";
import { apiQueryString, toApiQuery, type LogViewState } from "@/lib/domain/log-view";
import { AUTO_REFRESH_MS, webhookKeys } from "@/lib/domain/query-keys";

export function webhookApiPath(webhookId: string): string {
  return `/api/webhooks/${encodeURIComponent(webhookId)}`;
}

export function webhookQueryOptions(webhookId: string) {
  return queryOptions({
    queryKey: webhookKeys.webhook(webhookId),
    queryFn: ({ signal }) => apiRequest<Webhook>(webhookApiPath(webhookId), { signal }),
  });
}

export function logsQueryOptions(webhookId: string, state: LogViewState) {
  return queryOptions({
    queryKey: webhookKeys.logPage(webhookId, state),
    staleTime: AUTO_REFRESH_MS,
    queryFn: ({ signal }) =>
      apiRequest<WebhookLogPage>(`${webhookApiPath(webhookId)}/logs?${apiQueryString(toApiQuery(state))}`, {
        signal,
      }),
  });
}
