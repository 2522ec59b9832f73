"use client";

import { issueTitle, type FailureIssue } from "@/lib/domain/watch/failure-issue";

/**
 * The failure issue the log table is filtered to, by its title, and a way to clear it. Until the
 * issues are read, the filter shows without its title.
 */
export function IssueFilterChip({
  issue,
  onClear,
}: {
  issue: FailureIssue | undefined;
  onClear: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="rounded-full border border-zinc-300 px-3 py-1 dark:border-zinc-600">
        Issue: {issue ? issueTitle(issue) : "one failure issue"}
      </span>
      <button type="button" className="btn btn-secondary" onClick={onClear}>
        Clear issue filter
      </button>
    </div>
  );
}
