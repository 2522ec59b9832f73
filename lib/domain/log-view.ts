/**
 * What a webhook's log view asks for, derived from its URL state (`search-params.ts`): the API's
 * query, the history scan's and export's routes, the links to a view, the logs query's key part.
 */
import { findUuid, isUuidShape } from "@/lib/domain/api-limits";
import type { HistoryQuestion } from "@/lib/domain/history/question";
import { readCode, readContains, readTime } from "@/lib/domain/inputs/history-filters";
import {
  DEFAULT_LOG_VIEW,
  HISTORY_FILTERS,
  serializeLogView,
  type LogStatusFilter,
  type LogViewState,
} from "@/lib/domain/search-params";

/** What a person typed in "Webhook ID": the ID itself, or a pasted link whose path holds it. */
export function webhookIdFrom(input: string): string | null {
  const value = input.trim();
  if (isUuidShape(value)) return value;
  if (/^https?:\/\//i.test(value) || value.startsWith("/")) return findUuid(value);
  return null;
}

/** The console's own URL of a webhook's view. */
export function webhookViewHref(webhookId: string, state: Partial<LogViewState> = {}): string {
  return serializeLogView(`/webhooks/${encodeURIComponent(webhookId)}`, { ...DEFAULT_LOG_VIEW, ...state });
}

interface LogsApiQuery {
  offset: number;
  limit: number;
  status?: LogStatusFilter;
}

/** The API's query for a view. */
export function toApiQuery(state: Pick<LogViewState, "status" | "page" | "limit">): LogsApiQuery {
  return {
    offset: (state.page - 1) * state.limit,
    limit: state.limit,
    ...(state.status ? { status: state.status } : {}),
  };
}

/** `offset=…&limit=…[&status=…]` for the console's logs route. */
export function apiQueryString(query: LogsApiQuery): string {
  const params = new URLSearchParams({ offset: String(query.offset), limit: String(query.limit) });
  if (query.status) params.set("status", query.status);
  return params.toString();
}

/** True when the view filters by more than status: its rows come from the history route (store or scan). */
export function isHistoryView(state: LogViewState): boolean {
  return state.issue !== null || HISTORY_FILTERS.some((name) => state[name] !== null);
}

/** The question a view with history filters asks (its issue is read by the server, from the issue's ID). */
export function questionOfView(state: LogViewState): HistoryQuestion {
  return {
    status: state.status,
    code: state.code === null ? null : readCode(state.code),
    since: state.since === null ? null : readTime(state.since),
    until: state.until === null ? null : readTime(state.until),
    contains: state.contains === null ? null : readContains(state.contains),
    issue: null,
  };
}

/** The question's part of a view (status, the history filters and the failure issue), as search params. */
export function questionParams(state: LogViewState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.status) params.set("status", state.status);
  for (const name of HISTORY_FILTERS) if (state[name]) params.set(name, state[name]);
  if (state.issue) params.set("issue", state.issue);
  if (state.cap) params.set("cap", String(state.cap));
  return params;
}

/** The console's history scan route for a view: the page of matches it shows. */
export function historyScanPath(webhookId: string, state: LogViewState): string {
  const params = questionParams(state);
  params.set("offset", String((state.page - 1) * state.limit));
  params.set("limit", String(state.limit));
  return `/api/webhooks/${encodeURIComponent(webhookId)}/history?${params.toString()}`;
}

/** The console's export route for a view: every matched row, as CSV or JSON; redacted for a customer. */
export function historyExportPath(
  webhookId: string,
  state: LogViewState,
  format: "csv" | "json",
  forCustomer = false,
): string {
  const params = questionParams(state);
  params.set("format", format);
  if (forCustomer) params.set("for", "customer");
  // A download link, not a fetch: it names the page's application itself (see lib/browser/api.ts).
  if (state.app) params.set("app", state.app);
  return `/api/webhooks/${encodeURIComponent(webhookId)}/history/export?${params.toString()}`;
}

/** The preview page of a webhook's bundle under an application, of one failure issue when given. */
export function bundleHref(webhookId: string, { app, issue }: { app: string; issue?: string }): string {
  const query = new URLSearchParams({ app, ...(issue ? { issue } : {}) });
  return `/webhooks/${encodeURIComponent(webhookId)}/bundle?${query}`;
}
