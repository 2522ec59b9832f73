"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useId } from "react";
import { issueLogView } from "@/lib/domain/watch/failure-issue";
import { NO_HISTORY_FILTERS } from "@/lib/domain/search-params";
import { useLogView } from "@/components/logs/use-log-view";
import { issuesQueryOptions } from "@/components/issues/issues-api";

// The cards, their actions form and its zod schema load once there are issues to show (bench row "page weight").
const IssueList = dynamic(() => import("@/components/issues/issue-list").then((loaded) => loaded.IssueList), {
  ssr: false,
  loading: () => <p className="text-sm">Loading the issues…</p>,
});

/**
 * The failure issues of a watched webhook, on its page. "Show its deliveries" filters the log
 * table to the issue's failures (its ID, in the URL). Nothing shows for a
 * webhook nobody watches, or one that has not failed.
 */
export function WebhookIssuesPanel({ webhookId }: { webhookId: string }) {
  const headingId = useId();
  const { data: issues, error } = useQuery(issuesQueryOptions(webhookId));
  const [view, setView] = useLogView();

  if (error) {
    return (
      <p className="text-sm text-amber-900 dark:text-amber-200">
        Failure issues are unavailable: {error.message}
      </p>
    );
  }
  if (!issues || issues.length === 0) return null;

  return (
    <section aria-labelledby={headingId} className="card space-y-3 p-4">
      <div>
        <h2 id={headingId} className="text-base font-semibold">
          Failure issues
        </h2>
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          This webhook&apos;s failures grouped by cause, open ones first. Each is one incident to work, not
          one row per failure.
        </p>
      </div>
      <IssueList
        issues={issues}
        deliveries={(issue) => {
          const shown = view.issue === issue.id;
          return (
            <button
              type="button"
              className="btn btn-secondary"
              aria-pressed={shown}
              onClick={() => {
                void setView({ ...NO_HISTORY_FILTERS, ...issueLogView(issue), page: null, log: null });
                document.getElementById("deliveries")?.scrollIntoView({ block: "start" });
              }}
            >
              Show its deliveries
            </button>
          );
        }}
      />
    </section>
  );
}
