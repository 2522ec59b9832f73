/**
 * The URL state of a webhook's page, `/webhooks/{id}?app=&status=&code=&since=&until=&contains=&issue=&cap=&page=&limit=&log=&health=`:
 * one set of nuqs parsers, read by the page on the server (`loadLogView`) and by every link
 * (`serializeLogView`), so a copied link reopens the same view. A value a parser cannot read is
 * left out of the view, and `ignoredParams` says which and why.
 */
import {
  createLoader,
  createParser,
  createSerializer,
  parseAsNumberLiteral,
  parseAsStringLiteral,
  type inferParserType,
} from "nuqs/server";
import { LOG_LIMIT_DEFAULT, LOG_STATUSES, isUuidShape } from "@/lib/domain/api-limits";
import { parseApplicationId } from "@/lib/domain/applications";
import { DEFAULT_HEALTH_WINDOW, HEALTH_WINDOWS, type HealthWindow } from "@/lib/domain/history/health";
import {
  CONTAINS_MAX,
  readCode,
  readContains,
  readStatus,
  readTime,
} from "@/lib/domain/inputs/history-filters";

export const LOG_STATUS_FILTERS = LOG_STATUSES;

/** The "Rows per page" choices; the API allows at most 50. */
export const PAGE_SIZES = [10, 20, 50] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/** Far past any real history; keeps `offset` a safe integer. */
const MAX_PAGE = 1_000_000;
/** The most a scan may be asked to read (the server's own limit, HISTORY_SCAN_CAP_MAX, may be lower). */
const MAX_CAP = 10_000_000;

/** A parser of text kept as typed (trimmed), when `read` can read it. */
function parseAsTextWhere(read: (value: string) => unknown) {
  return createParser({
    parse: (raw) => {
      const value = raw.trim();
      return value && read(value) !== null ? value : null;
    },
    serialize: String,
  });
}

/** A whole number from 1 to `max`, written in digits only. */
function parseAsCount(max: number) {
  return createParser({
    parse: (raw) => {
      const value = raw.trim();
      return /^\d{1,8}$/.test(value) && Number(value) >= 1 && Number(value) <= max ? Number(value) : null;
    },
    serialize: String,
  });
}

/** A UUID, lower-cased: the shape of a log, message or failure issue ID. */
const parseAsUuid = createParser({
  parse: (raw) => (isUuidShape(raw.trim()) ? raw.trim().toLowerCase() : null),
  serialize: String,
});

/**
 * The parsers, in the order the URL lists them. `app` is the application the webhook belongs to
 * (an id derived from its key, never the key); `code`, `since`, `until` and `contains` filter the
 * whole history (a scan answers them); `issue` keeps only the failures of one failure issue (its
 * ID; the server reads which failures are its); `cap` is how many logs a scan may read, once a
 * person asked to scan further; `log` is the delivery whose details are open (a log or message ID);
 * `health` is Delivery health's window (1h, 24h or 7d).
 */
export const logViewParsers = {
  app: createParser({ parse: parseApplicationId, serialize: String }),
  status: createParser({ parse: readStatus, serialize: String }),
  code: parseAsTextWhere(readCode),
  since: parseAsTextWhere(readTime),
  until: parseAsTextWhere(readTime),
  contains: parseAsTextWhere(readContains),
  issue: parseAsUuid,
  cap: parseAsCount(MAX_CAP),
  page: parseAsCount(MAX_PAGE).withDefault(1),
  limit: parseAsNumberLiteral(PAGE_SIZES).withDefault(LOG_LIMIT_DEFAULT),
  log: parseAsUuid,
  health: parseAsStringLiteral(Object.keys(HEALTH_WINDOWS) as HealthWindow[]).withDefault(
    DEFAULT_HEALTH_WINDOW,
  ),
};

export type LogViewState = inferParserType<typeof logViewParsers>;
export type LogStatusFilter = NonNullable<LogViewState["status"]>;

export const DEFAULT_LOG_VIEW: LogViewState = {
  app: null,
  status: null,
  code: null,
  since: null,
  until: null,
  contains: null,
  issue: null,
  cap: null,
  page: 1,
  limit: LOG_LIMIT_DEFAULT,
  log: null,
  health: DEFAULT_HEALTH_WINDOW,
};

/** The view's filters that only a scan of the history can answer (the API filters by status only). */
export const HISTORY_FILTERS = ["code", "since", "until", "contains"] as const;
export type HistoryFilter = (typeof HISTORY_FILTERS)[number];

/** A patch of the view that clears every history filter, the failure issue and a scan-further cap. */
export const NO_HISTORY_FILTERS = {
  code: null,
  since: null,
  until: null,
  contains: null,
  issue: null,
  cap: null,
} as const;

/** `since` after `until` matches nothing and is refused by the scan: `since` is left out. */
export function withoutConflicts(view: LogViewState): LogViewState {
  return sinceAfterUntil(view) ? { ...view, since: null } : view;
}

function sinceAfterUntil(view: Pick<LogViewState, "since" | "until">): boolean {
  if (view.since === null || view.until === null) return false;
  return readTime(view.since)! > readTime(view.until)!;
}

const load = createLoader(logViewParsers);

/** Reads the view from what Next gives a page as `searchParams`, or from any URLSearchParams. Never throws. */
export function loadLogView(input: URLSearchParams | Record<string, string | string[] | undefined>) {
  return withoutConflicts(load(input));
}

/**
 * The URL's parameters in the parsers' order (any others after them, as they were), so one view
 * has one spelling whichever control changed last.
 */
export function inViewOrder(search: URLSearchParams): URLSearchParams {
  const order: string[] = Object.keys(logViewParsers);
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return new URLSearchParams([...search.entries()].sort(([a], [b]) => rank(a) - rank(b)));
}

/** Canonical query string (no leading `?`): defaults left out, in the parsers' order. */
export const serializeLogView = createSerializer(logViewParsers);

/** A parameter of the URL that the view left out, and why, said to a person. */
export interface IgnoredParam {
  name: keyof LogViewState;
  value: string;
  reason: string;
}

/** Why each parameter's value was left out, and what the page shows instead. */
const IGNORED_BECAUSE: Record<Exclude<keyof LogViewState, "app">, string> = {
  status: "Status must be Success or Failed; showing every status",
  code: "HTTP status must be a code from 0 to 599 (0 = No connection) or a class: 2xx, 3xx, 4xx or 5xx; not filtered by it",
  since: "Since must be a date and time in ISO 8601, e.g. 2025-01-31T02:00:00Z; not filtered by it",
  until: "Until must be a date and time in ISO 8601, e.g. 2025-01-31T02:00:00Z; not filtered by it",
  contains: `Response contains may be at most ${CONTAINS_MAX} characters; not filtered by it`,
  issue:
    "the failure issue must be an issue ID (a UUID), as its Show its deliveries button sets it; not filtered by it",
  cap: `the scan limit must be a whole number from 1 to ${MAX_CAP.toLocaleString("en")}; scanning the usual number`,
  page: `the page must be a whole number from 1 to ${MAX_PAGE.toLocaleString("en")}; showing page 1`,
  limit: `Rows per page must be ${PAGE_SIZES.join(", ").replace(/, (\d+)$/, " or $1")}; showing ${LOG_LIMIT_DEFAULT}`,
  log: "the delivery to open must be a log ID or message ID (a UUID); none opened",
  health: `Delivery health's window must be ${Object.keys(HEALTH_WINDOWS)
    .join(", ")
    .replace(/, (\w+)$/, " or $1")}; showing ${DEFAULT_HEALTH_WINDOW}`,
};

/** An `issue` that is none of the webhook's failure issues: left out of the view, and said so. */
export function unknownIssueParam(value: string): IgnoredParam {
  return {
    name: "issue",
    value,
    reason:
      "this webhook has no failure issue with this ID (it may have gone with its watch); not filtered by it",
  };
}

/**
 * The parameters a link holds that the view could not use (the application is not one: a link
 * without a usable one is sent on to the current application's). Empty values count as absent.
 */
export function ignoredParams(search: { get(name: string): string | null }): IgnoredParam[] {
  const ignored: IgnoredParam[] = [];
  const names = Object.keys(IGNORED_BECAUSE) as Array<keyof typeof IGNORED_BECAUSE>;
  for (const name of names) {
    const value = search.get(name);
    if (value === null || value.trim() === "") continue;
    if (logViewParsers[name].parse(value) === null)
      ignored.push({ name, value, reason: IGNORED_BECAUSE[name] });
  }
  const since = search.get("since");
  const until = search.get("until");
  const view = {
    since: since && logViewParsers.since.parse(since),
    until: until && logViewParsers.until.parse(until),
  };
  if (view.since && view.until && sinceAfterUntil(view))
    ignored.push({ name: "since", value: since!, reason: "Since is after Until; not filtered by Since" });
  return ignored;
}
