"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { webhookViewHref } from "@/lib/domain/log-view";
import { issueLogView } from "@/lib/domain/watch/failure-issue";
import { Notice } from "@/components/ui/notice";
import { IssueList } from "@/components/issues/issue-list";
import { issuesQueryOptions } from "@/components/issues/issues-api";

/**
 * The overview's failure issues: every watched webhook's failures grouped by cause, open ones
 * first and the newest failure first, of the webhooks the overview's filters leave in view.
 * Each links to its webhook's log table, filtered to its deliveries.
 */
export function FailureIssuesSection({ webhookIds }: { webhookIds: ReadonlySet<string> }) {
  const { data, error } = useQuery(issuesQueryOptions());
  const issues = data?.filter((issue) => webhookIds.has(issue.webhookId));

  return (
    <section aria-labelledby="failure-issues-heading" className="space-y-3">
      <div>
        <h2 id="failure-issues-heading" className="text-lg font-semibold">
          Failure issues
        </h2>
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          Failures grouped by webhook and cause (status code and response), so a team works one incident, not
          one row per failure. Open ones first, the newest failure first.
        </p>
      </div>
      {error ? (
        <Notice tone="warning" role="alert">
          <p>Failure issues could not be read: {error.message}</p>
        </Notice>
      ) : null}
      {!issues ? (
        error ? null : (
          <p role="status" className="text-sm">
            Reading failure issues…
          </p>
        )
      ) : issues.length === 0 ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">No failure of a watched webhook so far.</p>
      ) : (
        <IssueList
          issues={issues}
          showWebhook
          deliveries={(issue) => (
            <Link
              href={webhookViewHref(issue.webhookId, { app: issue.appId, ...issueLogView(issue) })}
              className="btn btn-secondary"
            >
              Show its deliveries
            </Link>
          )}
        />
      )}
    </section>
  );
}
