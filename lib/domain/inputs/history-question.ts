import { z } from "zod/mini";
import { LOG_STATUSES, type LogStatus } from "@/lib/domain/api-limits";
import type { CodeFilter, HistoryQuestion } from "@/lib/domain/history/question";
import { fieldMessage, tooLongMessage } from "@/lib/domain/inputs/field-message";

/**
 * The filters over a webhook's whole history, as the URL and the filter form carry them
 * (`status=Failed&code=5xx&since=…&until=…&contains=timeout`). The form and the history routes
 * parse them with this one schema; empty values count as absent.
 */

/** Longest "Response contains" text. */
export const CONTAINS_MAX = 200;

export const QUESTION_LABELS = {
  status: "Status",
  code: "HTTP status",
  since: "Since",
  until: "Until",
  contains: "Response contains",
} as const;

/** A code filter as typed: `500`, `0`, `No connection`, `5xx`. null when unreadable. */
function readCode(raw: string): CodeFilter | null {
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
function readTime(raw: string): number | null {
  // A "+03:00" left unencoded in a query string arrives as " 03:00".
  const value = raw.trim().replace(/([T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) (\d{2}:?\d{2})$/i, "$1+$2");
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(value))
    return null;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(value) && value.length > 10;
  const normalised = value.replace(" ", "T");
  const time = Date.parse(hasZone || normalised.length === 10 ? normalised : `${normalised}Z`);
  return Number.isFinite(time) ? time : null;
}

function readStatus(raw: string): LogStatus | null {
  const lower = raw.trim().toLowerCase();
  return LOG_STATUSES.find((status) => status.toLowerCase() === lower) ?? null;
}

function readContains(raw: string): string | null {
  return raw.length > CONTAINS_MAX ? null : raw.toLowerCase();
}

/** An optional filter: absent or blank is null; unreadable is an issue saying what to enter. */
export function filter<T>(read: (raw: string) => T | null, message: (raw: string) => string) {
  return z.pipe(
    z.optional(z.string({ error: message("") })),
    z.transform((raw, ctx): T | null => {
      if (raw === undefined || raw.trim() === "") return null;
      const value = read(raw);
      if (value === null) ctx.issues.push({ code: "custom", message: message(raw), input: raw });
      return value;
    }),
  );
}

/** An optional date and time (ISO 8601) as epoch ms, under the field's label. */
export function timeFilter(label: string) {
  return filter(readTime, () => fieldMessage(label, "enter a date and time, e.g. 2025-01-31T02:00:00Z."));
}

export const questionShape = {
  status: filter(readStatus, () => fieldMessage(QUESTION_LABELS.status, "choose Success or Failed.")),
  code: filter(readCode, () =>
    fieldMessage(
      QUESTION_LABELS.code,
      "enter a code from 0 to 599 (0 is No connection), or a class: 2xx, 3xx, 4xx or 5xx.",
    ),
  ),
  since: timeFilter(QUESTION_LABELS.since),
  until: timeFilter(QUESTION_LABELS.until),
  contains: filter(readContains, (raw) => tooLongMessage(QUESTION_LABELS.contains, CONTAINS_MAX, raw.length)),
};

/** Since must not be after Until; the issue is Since's. */
export const sinceNotAfterUntil = z.refine<Pick<HistoryQuestion, "since" | "until">>(
  (question) => question.since === null || question.until === null || question.since <= question.until,
  { error: fieldMessage(QUESTION_LABELS.since, "pick a time before Until."), path: ["since"] },
);

/** The question alone (the filter form checks with it). */
export const historyQuestionSchema = z.object(questionShape).check(sinceNotAfterUntil);
