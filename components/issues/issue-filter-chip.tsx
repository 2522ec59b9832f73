import Link from "next/link";
import { issueTitle, type FailureIssue } from "@/lib/domain/watch/failure-issue";

/** The failure issue the log table is filtered to, by its title, and the table without that filter. */
export function IssueFilterChip({ issue, clearHref }: { issue: FailureIssue; clearHref: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="rounded-full border border-zinc-300 px-3 py-1 dark:border-zinc-600">
        Issue: {issueTitle(issue)}
      </span>
      <Link href={clearHref} scroll={false} className="btn btn-secondary">
        Clear issue filter
      </Link>
    </div>
  );
}
