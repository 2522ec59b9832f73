/**
 * The browser's read of a page of a webhook's logs, and its `queryOptions`: what the send form
 * reads to follow its test message's deliveries.
 */
import { queryOptions } from "@tanstack/react-query";
import type { WebhookLogPage } from "@/lib/domain/hub-schemas";
import { apiRequest } from "@/lib/browser/api";
import { apiQueryString, toApiQuery } from "@/lib/domain/log-view";
import type { LogViewState } from "@/lib/domain/search-params";
import { webhookKeys } from "@/lib/domain/query-keys";

export function fetchLogPage(
  webhookId: string,
  view: LogViewState,
  signal?: AbortSignal,
): Promise<WebhookLogPage> {
  const query = apiQueryString(toApiQuery(view));
  return apiRequest<WebhookLogPage>(`/api/webhooks/${encodeURIComponent(webhookId)}/logs?${query}`, {
    signal,
  });
}

export function logsQueryOptions(webhookId: string, view: LogViewState) {
  return queryOptions({
    queryKey: webhookKeys.logPage(webhookId, view),
    queryFn: ({ signal }) => fetchLogPage(webhookId, view, signal),
  });
}
