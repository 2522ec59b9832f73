import { LOG_STATUSES, type LogStatus } from "@/lib/domain/api-limits";
import type { CodeFilter } from "@/lib/domain/history/question";

/**
 * How each history filter's text reads as a value, in plain code: the URL's parsers
 * (search-params.ts, loaded by every console page) and the filters' schema
 * (history-question.ts) both read filters with these, and the first stay free of zod.
 */

/** Longest "Response contains" text. */
export const CONTAINS_MAX = 200;

/** Each filter's label, by the name it has in the URL and the scan route. */
export const QUESTION_LABELS = {
  status: "Status",
  code: "HTTP status",
  since: "Since",
  until: "Until",
  contains: "Response contains",
} as const;

/** A code filter as typed: `500`, `0`, `No connection`, `5xx`. null when unreadable. */
export function readCode(raw: string): CodeFilter | null {
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

/** An ISO 8601 time with a date and a time (and a zone, or UTC assumed), as epoch ms; null when unreadable. */
export function readTime(raw: string): number | null {
  // A "+03:00" left unencoded in a query string arrives as " 03:00".
  const value = raw.trim().replace(/([T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) (\d{2}:?\d{2})$/i, "$1+$2");
  const parts =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/i.exec(
      value,
    );
  if (!parts) return null;
  // Date.parse rolls an impossible date over (30 February is read as 2 March): refuse it instead.
  const [year, month, day, hour = 0, minute = 0, second = 0] = parts
    .slice(1)
    .map((part) => Number(part ?? 0));
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth || hour > 23 || minute > 59 || second > 59)
    return null;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(value) && value.length > 10;
  const normalised = value.replace(" ", "T");
  const time = Date.parse(hasZone || normalised.length === 10 ? normalised : `${normalised}Z`);
  return Number.isFinite(time) ? time : null;
}

/** A status in any case (`failed`), as the API spells it; null when it is not one. */
export function readStatus(raw: string): LogStatus | null {
  const lower = raw.trim().toLowerCase();
  return LOG_STATUSES.find((status) => status.toLowerCase() === lower) ?? null;
}

/** "Response contains" in lower case; null when longer than CONTAINS_MAX. */
export function readContains(raw: string): string | null {
  return raw.length > CONTAINS_MAX ? null : raw.toLowerCase();
}
