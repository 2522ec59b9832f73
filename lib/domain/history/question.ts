/**
 * A question over a webhook's delivery history, and how a log answers it. The URL's filters
 * become one through `historyQuestionSchema` (lib/domain/inputs/history-question.ts).
 */
import type { LogStatus } from "@/lib/domain/api-limits";

/** An HTTP status filter: one code (0 = "No connection"), or a class 2xx..5xx. */
export type CodeFilter = { kind: "exact"; code: number } | { kind: "class"; hundreds: 2 | 3 | 4 | 5 };

/** The failures of one failure issue: its status code and their bodies' signature (failure-signature.ts). */
export interface IssueFilter {
  id: string;
  statusCode: number;
  signature: string;
}

export interface HistoryQuestion {
  status: LogStatus | null;
  code: CodeFilter | null;
  /** Epoch ms; logs sent at or after. */
  since: number | null;
  /** Epoch ms; logs sent at or before. */
  until: number | null;
  /** Lower-cased text the response body must contain. */
  contains: string | null;
  /**
   * Only this issue's failures. The server reads it from the issue's ID; its signature is tested
   * on the server (lib/server/watch/issue-logs.ts), as it needs the body as the watch keeps it.
   */
  issue: IssueFilter | null;
}

export const EMPTY_QUESTION: HistoryQuestion = {
  status: null,
  code: null,
  since: null,
  until: null,
  contains: null,
  issue: null,
};
