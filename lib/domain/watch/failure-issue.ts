/**
 * A failure issue: the failures of one watched webhook that share a cause (status code and body
 * signature, lib/domain/failure-signature.ts), worked as one incident instead of many rows. Plain
 * data safe for client components; the store (lib/server/watch/failure-issues.ts) produces it.
 */
import type { LogViewState } from "@/lib/domain/search-params";

export const ISSUE_STATES = ["open", "acknowledged", "resolved", "ignored"] as const;
export type IssueState = (typeof ISSUE_STATES)[number];

/** What a person does to an issue; each sets its state (acknowledge needs a note). */
export const ISSUE_ACTIONS = ["acknowledge", "resolve", "ignore", "reopen"] as const;
export type IssueAction = (typeof ISSUE_ACTIONS)[number];

/** Successful deliveries in a row after an issue's last failure that resolve it by itself (WATCH_ISSUE_RESOLVE_AFTER). */
export const DEFAULT_RESOLVE_AFTER = 3;

/** Failures kept as samples of an issue, newest first. */
export const ISSUE_SAMPLES = 3;

export interface IssueSample {
  logId: string;
  at: string;
  /** The start of the response body. */
  body: string;
  /** The whole body's size in bytes. */
  bodySize: number;
}

export interface FailureIssue {
  id: string;
  webhookId: string;
  /** The watch's application, name and endpoint. */
  appId: string;
  webhookName: string;
  endpoint: string;
  statusCode: number;
  /** failureCause's signature of the body: with statusCode, which failures are this issue's. */
  signature: string;
  /** The body with its volatile parts stripped, to show ("" for an empty body). */
  signatureText: string;
  state: IssueState;
  failures: number;
  firstFailure: { at: string; logId: string };
  lastFailure: { at: string; logId: string };
  samples: IssueSample[];
  /** When it was resolved, and whether by itself (`auto`) or by a person. */
  resolved: { at: string; by: "auto" | "person" } | null;
  /** Set when a failure after its resolution opened it again. */
  reopenedAt: string | null;
  /** The last change a person made: who (as typed), the note, when. */
  lastChange: { name: string; note: string | null; at: string } | null;
  /** Successes in a row that resolve it by itself. */
  resolveAfter: number;
}

/** Open and acknowledged issues need someone; resolved and ignored ones do not. */
export function isActive(issue: Pick<FailureIssue, "state">): boolean {
  return issue.state === "open" || issue.state === "acknowledged";
}

const RANK: Record<IssueState, number> = { open: 0, acknowledged: 1, resolved: 2, ignored: 3 };

/** Worst first: open, then acknowledged, then resolved and ignored; within each, the newest failure first. */
export function compareIssues(a: FailureIssue, b: FailureIssue): number {
  return (
    RANK[a.state] - RANK[b.state] ||
    Date.parse(b.lastFailure.at) - Date.parse(a.lastFailure.at) ||
    b.failures - a.failures ||
    a.id.localeCompare(b.id)
  );
}

/** The log view that shows an issue's deliveries: its failures only (the server reads which are its). */
export function issueLogView(issue: Pick<FailureIssue, "id">): Pick<LogViewState, "status" | "issue"> {
  return { status: "Failed", issue: issue.id };
}

/** How the table names an issue it is filtered by: "500 · database connection lost". */
export function issueTitle(issue: Pick<FailureIssue, "statusCode" | "signatureText">): string {
  const code = issue.statusCode === 0 ? "No connection" : String(issue.statusCode);
  return `${code} · ${issue.signatureText || "empty response"}`;
}
