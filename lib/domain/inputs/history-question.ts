import { z } from "zod/mini";
import type { HistoryQuestion } from "@/lib/domain/history/question";
import { fieldMessage, tooLongMessage } from "@/lib/domain/inputs/field-message";
import {
  CONTAINS_MAX,
  QUESTION_LABELS,
  readCode,
  readContains,
  readStatus,
  readTime,
} from "@/lib/domain/inputs/history-filters";

/**
 * The filters over a webhook's whole history, as the URL and the filter form carry them
 * (`status=Failed&code=5xx&since=…&until=…&contains=timeout`). The form and the history routes
 * parse them with this one schema; empty values count as absent. How each value reads is
 * history-filters.ts.
 */

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
