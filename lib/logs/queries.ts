/**
 * Query keys and `queryOptions` builders for a webhook and its logs. The same builders serve
 * the server prefetch (page.tsx swaps in a `queryFn` that calls the hub directly with the
 * session's key) and `useQuery` in the browser (which calls the console's own API), so both
 * sides agree on the keys and the data's shape. A logs key is the serialized URL state.
 */
import { queryOptions } from "@tanstack/react-query";
import type { Webhook, WebhookLogPage } from "@/lib/hub/schemas";
import { apiRequest } from "@/lib/client/api";
import { apiQueryString, logsQueryState, toApiQuery, type LogViewState } from "@/lib/logs/search-params";

/**
 * How often the log view refreshes itself when Auto-refresh is on, and how long a fetched page of
 * logs counts as fresh: a view older than this (a page prefetched a while ago, one seen before)
 * shows its cached rows at once and is fetched again in the background.
 */
export const AUTO_REFRESH_MS = 5000;

export const webhookKeys = {
  webhook: (webhookId: string) => ["webhooks", webhookId] as const,
  logs: (webhookId: string) => ["webhooks", webhookId, "logs"] as const,
  logPage: (webhookId: string, state: LogViewState) => ["webhooks", webhookId, "logs", logsQueryState(state)] as const,
};

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
      apiRequest<WebhookLogPage>(`${webhookApiPath(webhookId)}/logs?${apiQueryString(toApiQuery(state))}`, { signal }),
  });
}
