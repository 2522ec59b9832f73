"use client";

import type { ReactNode } from "react";
import { isActive, type FailureIssue } from "@/lib/domain/watch/failure-issue";
import { IssueCard } from "@/components/issues/issue-card";

/**
 * Issues worst first (as the store orders them): the open and acknowledged ones shown, the
 * resolved and ignored ones folded away below them.
 */
export function IssueList({
  issues,
  showWebhook,
  deliveries,
}: {
  issues: FailureIssue[];
  showWebhook?: boolean;
  /** The control that shows an issue's deliveries. */
  deliveries: (issue: FailureIssue) => ReactNode;
}) {
  const active = issues.filter(isActive);
  const settled = issues.filter((issue) => !isActive(issue));
  const cards = (list: FailureIssue[]) => (
    <ul className="space-y-3">
      {list.map((issue) => (
        <li key={issue.id}>
          <IssueCard issue={issue} showWebhook={showWebhook} deliveries={deliveries(issue)} />
        </li>
      ))}
    </ul>
  );
  return (
    <div className="space-y-3">
      {active.length > 0 ? (
        cards(active)
      ) : (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          No open issue: nothing is failing for a new reason.
        </p>
      )}
      {settled.length > 0 ? (
        <details>
          <summary className="cursor-pointer text-sm font-medium">
            Resolved and ignored ({settled.length})
          </summary>
          <div className="mt-3">{cards(settled)}</div>
        </details>
      ) : null}
    </div>
  );
}
