/**
 * A question over a webhook's delivery history, as it lives in the URL:
 * `status=Failed&code=5xx&since=2025-01-01T02:00:00Z&until=…&contains=timeout`.
 *
 * One parser (with field errors, for the routes' 400s) and one serializer, shared by the routes
 * and the browser; plain TypeScript, no zod, so it can sit in the client bundle.
 */
import { LOG_STATUSES, type LogStatus } from "@/lib/domain/api-limits";
import type { FieldErrors } from "@/lib/domain/api-error";

/** Longest "Response contains" text. */
export const CONTAINS_MAX = 200;

/** An HTTP status filter: one code (0 = "No connection"), or a class 2xx..5xx. */
export type CodeFilter = { kind: "exact"; code: number } | { kind: "class"; hundreds: 2 | 3 | 4 | 5 };

export interface HistoryQuestion {
  status: LogStatus | null;
  code: CodeFilter | null;
  /** Epoch ms; logs sent at or after. */
  since: number | null;
  /** Epoch ms; logs sent at or before. */
  until: number | null;
  /** Lower-cased text the response body must contain. */
  contains: string | null;
}

export const EMPTY_QUESTION: HistoryQuestion = {
  status: null,
  code: null,
  since: null,
  until: null,
  contains: null,
};

/** The search params the question reads. */
export const QUESTION_PARAMS = ["status", "code", "since", "until", "contains"] as const;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

type ParamsInput = URLSearchParams | { get(name: string): string | null };

/** A code filter as typed: `500`, `0`, `No connection`, `5xx`. null when unreadable. */
export function parseCodeFilter(raw: string): CodeFilter | null {
  const value = raw.trim().toLowerCase();
  if (value === "no connection" || value === "none") return { kind: "exact", code: 0 };
  const cls = /^([2-5])xx$/.exec(value);
  if (cls) return { kind: "class", hundreds: Number(cls[1]) as 2 | 3 | 4 | 5 };
  if (/^\d{1,3}$/.test(value)) {
    const code = Number(value);
    return code <= 599 ? { kind: "exact", code } : null;
  }
  return null;
}

export function formatCodeFilter(filter: CodeFilter): string {
  return filter.kind === "exact" ? String(filter.code) : `${filter.hundreds}xx`;
}

/** An ISO 8601 time with a date and a time (and a zone, or UTC assumed); null when unreadable. */
export function parseTime(raw: string): number | null {
  // A "+03:00" left unencoded in a query string arrives as " 03:00".
  const value = raw.trim().replace(/([T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) (\d{2}:?\d{2})$/i, "$1+$2");
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(value))
    return null;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(value) && value.length > 10;
  const normalised = value.replace(" ", "T");
  const time = Date.parse(hasZone || normalised.length === 10 ? normalised : `${normalised}Z`);
  return Number.isFinite(time) ? time : null;
}

/**
 * Reads a question from search params. Every unreadable field is named with what to do; empty
 * values count as absent. `since` after `until` is an error on `since`.
 */
export function parseQuestion(params: ParamsInput): ParseResult<HistoryQuestion> {
  const errors: FieldErrors = {};
  const get = (name: string) => {
    const value = params.get(name);
    return value === null || value.trim() === "" ? null : value;
  };
  const question: HistoryQuestion = { ...EMPTY_QUESTION };

  const status = get("status");
  if (status !== null) {
    const found = LOG_STATUSES.find((s) => s.toLowerCase() === status.trim().toLowerCase());
    if (found) question.status = found;
    else errors.status = ["must be Success or Failed"];
  }
  const code = get("code");
  if (code !== null) {
    question.code = parseCodeFilter(code);
    if (!question.code)
      errors.code = [
        "must be a status code from 0 to 599 (0 = No connection), or a class: 2xx, 3xx, 4xx or 5xx",
      ];
  }
  for (const name of ["since", "until"] as const) {
    const raw = get(name);
    if (raw === null) continue;
    question[name] = parseTime(raw);
    if (question[name] === null)
      errors[name] = ["must be a date and time in ISO 8601, e.g. 2025-01-31T02:00:00Z"];
  }
  if (question.since !== null && question.until !== null && question.since > question.until) {
    errors.since = ["must not be after until"];
  }
  const contains = params.get("contains");
  if (contains !== null && contains !== "") {
    if (contains.length > CONTAINS_MAX) errors.contains = [`may be at most ${CONTAINS_MAX} characters`];
    else question.contains = contains.toLowerCase();
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: question };
}

/** Canonical search params of a question (absent fields left out, fixed order). */
export function serializeQuestion(question: HistoryQuestion): URLSearchParams {
  const params = new URLSearchParams();
  if (question.status) params.set("status", question.status);
  if (question.code) params.set("code", formatCodeFilter(question.code));
  if (question.since !== null) params.set("since", new Date(question.since).toISOString());
  if (question.until !== null) params.set("until", new Date(question.until).toISOString());
  if (question.contains) params.set("contains", question.contains);
  return params;
}

/** The fields of a log the question reads. */
export interface MatchableLog {
  status: string;
  statusCode: number;
  sendAt: string;
  responseBody: string;
}

export function matchesCode(filter: CodeFilter, statusCode: number): boolean {
  return filter.kind === "exact"
    ? statusCode === filter.code
    : Math.floor(statusCode / 100) === filter.hundreds;
}

export function matchesQuestion(question: HistoryQuestion, log: MatchableLog): boolean {
  if (question.status && log.status !== question.status) return false;
  if (question.code && !matchesCode(question.code, log.statusCode)) return false;
  if (question.since !== null || question.until !== null) {
    const sent = Date.parse(log.sendAt);
    if (question.since !== null && !(sent >= question.since)) return false;
    if (question.until !== null && !(sent <= question.until)) return false;
  }
  if (question.contains && !log.responseBody.toLowerCase().includes(question.contains)) return false;
  return true;
}

/**
 * True when no log at or past this one (in newest-first order) can match: the list is ordered by
 * `createdDate`, and a log is sent before it is created, so once `createdDate` is older than
 * `since`, every later log was sent before `since` too.
 */
export function isPastWindow(question: HistoryQuestion, log: { createdDate: string }): boolean {
  return question.since !== null && Date.parse(log.createdDate) < question.since;
}
