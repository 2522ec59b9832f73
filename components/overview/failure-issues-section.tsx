"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { webhookViewHref } from "@/lib/domain/log-view";
import type { FailureIssue } from "@/lib/domain/watch/failure-issue";
import { issueView } from "@/lib/domain/watch/issue-view";
import { Notice } from "@/components/ui/notice";
import { IssueLines } from "@/components/issues/issue-lines";
import { issuesQueryOptions } from "@/components/issues/issues-api";

/**
 * The overview's failure issues: every watched webhook's failures grouped by cause, one line each,
 * under their webhook (in the overview's order, of the webhooks its filters leave in view). A line
 * opens in place to its diagnosis and actions; acting on it keeps it there.
 */
export function FailureIssuesSection({ webhookIds }: { webhookIds: readonly string[] }) {
  const { data, error } = useQuery(issuesQueryOptions());
  const groups = data
    ? webhookIds
        .map((webhookId) => data.filter((issue) => issue.webhookId === webhookId))
        .filter((issues): issues is [FailureIssue, ...FailureIssue[]] => issues.length > 0)
    : null;

  return (
    <section aria-labelledby="failure-issues-heading" className="space-y-3">
      <div>
        <h2 id="failure-issues-heading" className="text-lg font-semibold">
          Failure issues
        </h2>
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          Failures grouped by webhook and cause (status code and response), so a team works one incident, not
          one row per failure. Open one for its diagnosis and what to do.
        </p>
      </div>
      {error ? (
        <Notice tone="warning" role="alert">
          <p>Failure issues could not be read: {error.message}</p>
        </Notice>
      ) : null}
      {!groups ? (
        error ? null : (
          <p role="status" className="text-sm">
            Reading failure issues…
          </p>
        )
      ) : groups.length === 0 ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">No failure of a watched webhook so far.</p>
      ) : (
        <div className="card divide-y divide-zinc-200 dark:divide-zinc-800">
          {groups.map((issues) => {
            const [first] = issues;
            return (
              <section
                key={first.webhookId}
                aria-label={`Failure issues of ${first.webhookName}`}
                className="px-4 py-2"
              >
                <h3 className="flex flex-wrap items-baseline gap-x-2 text-sm">
                  <Link
                    href={webhookViewHref(first.webhookId, { app: first.appId })}
                    prefetch={false}
                    className="btn-link font-semibold"
                  >
                    {first.webhookName}
                  </Link>
                  <span className="font-mono text-xs break-all text-zinc-600 dark:text-zinc-400">
                    {first.endpoint}
                  </span>
                </h3>
                <IssueLines issues={issues.map(issueView)} settled />
              </section>
            );
          })}
        </div>
      )}
    </section>
  );
}
