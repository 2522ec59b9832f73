/**
 * The state of a webhook's log view, as it lives in the URL:
 * `/webhooks/{id}?app=<appId>&status=Failed&page=3&limit=50&log=<logId>`.
 *
 * One parser and one serializer, shared by the page (server prefetch), the client components
 * (`useLogView` reads it, `setLogView` writes it) and every link, so a copied link
 * reopens the same view. Plain TypeScript on purpose: this module is in the client bundle, and
 * zod is not.
 */
import { LOG_LIMIT_DEFAULT, LOG_STATUSES, isUuidShape, type LogStatus } from "@/lib/domain/api-limits";
import { parseApplicationId } from "@/lib/domain/applications";

export const LOG_STATUS_FILTERS = LOG_STATUSES;
export type LogStatusFilter = LogStatus;

/** The "Rows per page" choices; the API allows at most 50. */
export const PAGE_SIZES = [10, 20, 50] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
/** The API's own default, so a bare URL asks for what the API would give. */
const DEFAULT_PAGE_SIZE: PageSize = LOG_LIMIT_DEFAULT;
/** Far past any real history; keeps `offset` a safe integer. */
const MAX_PAGE = 1_000_000;

export interface LogViewState {
  /** The application the webhook belongs to (an id derived from its key, never the key); null: the current one. */
  app: string | null;
  /** null: all statuses. */
  status: LogStatusFilter | null;
  /** 1-based. */
  page: number;
  limit: PageSize;
  /** The log whose details are open, or null. */
  log: string | null;
  /** Filters over the whole history, as typed (checked by `historyQuestionSchema`); null when unset. */
  code: string | null;
  since: string | null;
  until: string | null;
  contains: string | null;
  /** How many logs a history scan may read, when a person asked to scan further; null: the default. */
  cap: number | null;
}

/** The view's filters that only a scan of the history can answer (the API filters by status only). */
export const HISTORY_FILTERS = ["code", "since", "until", "contains"] as const;
export type HistoryFilter = (typeof HISTORY_FILTERS)[number];

export const DEFAULT_LOG_VIEW: LogViewState = {
  app: null,
  status: null,
  page: 1,
  limit: DEFAULT_PAGE_SIZE,
  log: null,
  code: null,
  since: null,
  until: null,
  contains: null,
  cap: null,
};

/** A patch of the view that clears every history filter (and a scan-further cap). */
export const NO_HISTORY_FILTERS = {
  code: null,
  since: null,
  until: null,
  contains: null,
  cap: null,
} as const;

/** Longest filter text the URL carries; longer is cut (the scan route refuses what is still too long). */
const FILTER_TEXT_MAX = 300;

/** What Next gives a page as `searchParams`, or what the browser has in `location.search`. */
type SearchParamsInput =
  URLSearchParams | { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function read(input: SearchParamsInput, name: string): string | null {
  if (typeof (input as { get?: unknown }).get === "function") {
    return (input as { get(name: string): string | null }).get(name);
  }
  const value = (input as Record<string, string | string[] | undefined>)[name];
  if (Array.isArray(value)) return value[0] ?? null;
  return value ?? null;
}

function parseStatus(raw: string | null): LogStatusFilter | null {
  if (!raw) return null;
  const lower = raw.trim().toLowerCase();
  return LOG_STATUS_FILTERS.find((status) => status.toLowerCase() === lower) ?? null;
}

function parsePage(raw: string | null): number {
  if (!raw || !/^\d{1,7}$/.test(raw.trim())) return 1;
  const page = Number(raw.trim());
  return Math.min(Math.max(page, 1), MAX_PAGE);
}

function parseLimit(raw: string | null): PageSize {
  const value = Number(raw?.trim());
  return PAGE_SIZES.find((size) => size === value) ?? DEFAULT_PAGE_SIZE;
}

function parseText(raw: string | null): string | null {
  const value = raw?.trim();
  return value ? value.slice(0, FILTER_TEXT_MAX) : null;
}

function parseCap(raw: string | null): number | null {
  return raw && /^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) || null : null;
}

function parseLog(raw: string | null): string | null {
  const value = raw?.trim();
  return value && isUuidShape(value) ? value.toLowerCase() : null;
}

/**
 * Reads the view from search params. Never throws: anything unreadable falls back to its
 * default, so a hand-edited link still opens a sensible view.
 */
export function parseLogSearchParams(input: SearchParamsInput): LogViewState {
  return {
    app: parseApplicationId(read(input, "app")),
    status: parseStatus(read(input, "status")),
    page: parsePage(read(input, "page")),
    limit: parseLimit(read(input, "limit")),
    log: parseLog(read(input, "log")),
    code: parseText(read(input, "code")),
    since: parseText(read(input, "since")),
    until: parseText(read(input, "until")),
    contains: parseText(read(input, "contains")),
    cap: parseCap(read(input, "cap")),
  };
}

/** Canonical query string (no leading `?`), defaults left out, in a fixed order. */
export function serializeLogSearchParams(state: LogViewState): string {
  const params = new URLSearchParams();
  if (state.app) params.set("app", state.app);
  if (state.status) params.set("status", state.status);
  for (const name of HISTORY_FILTERS) if (state[name]) params.set(name, state[name]);
  if (state.cap) params.set("cap", String(state.cap));
  if (state.page !== 1) params.set("page", String(state.page));
  if (state.limit !== DEFAULT_PAGE_SIZE) params.set("limit", String(state.limit));
  if (state.log) params.set("log", state.log);
  return params.toString();
}

/** The console's own URL of a webhook's view. */
export function webhookViewHref(webhookId: string, state: Partial<LogViewState> = {}): string {
  const query = serializeLogSearchParams({ ...DEFAULT_LOG_VIEW, ...state });
  return `/webhooks/${encodeURIComponent(webhookId)}${query ? `?${query}` : ""}`;
}

/**
 * The part of the view the logs query depends on (an open dialog does not refetch). Not the
 * application: a page's queries all use its own, and moving to another is a full page load.
 */
export function logsQueryState(state: LogViewState): string {
  return serializeLogSearchParams({ ...state, log: null, app: null });
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

/** True when the view filters by more than status: its rows come from a scan of the history. */
export function isHistoryView(state: LogViewState): boolean {
  return HISTORY_FILTERS.some((name) => state[name] !== null);
}

/** The question's part of a view (status and the history filters), as search params. */
export function questionParams(state: LogViewState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.status) params.set("status", state.status);
  for (const name of HISTORY_FILTERS) if (state[name]) params.set(name, state[name]);
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

/** The console's export route for a view: every matched row, as CSV or JSON. */
export function historyExportPath(webhookId: string, state: LogViewState, format: "csv" | "json"): string {
  const params = questionParams(state);
  params.set("format", format);
  // A download link, not a fetch: it names the page's application itself (see lib/browser/api.ts).
  if (state.app) params.set("app", state.app);
  return `/api/webhooks/${encodeURIComponent(webhookId)}/history/export?${params.toString()}`;
}
