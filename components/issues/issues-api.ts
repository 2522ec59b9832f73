import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "@/lib/browser/api";
import type { FailureIssue, IssueAction } from "@/lib/domain/watch/failure-issue";

/** How often an open list of issues reads the store again. */
export const ISSUES_REFRESH_MS = 15_000;

/** Every list of issues starts with this key: a change invalidates them all. */
export const ISSUES_KEY = ["issues"] as const;

/** The issues of every application in the session, or of one webhook. */
export function issuesQueryOptions(webhookId?: string) {
  return queryOptions({
    queryKey: [...ISSUES_KEY, webhookId ?? "all"],
    queryFn: async ({ signal }) =>
      (
        await apiRequest<{ issues: FailureIssue[] }>(
          webhookId ? `/api/issues?webhookId=${encodeURIComponent(webhookId)}` : "/api/issues",
          { signal },
        )
      ).issues,
    refetchInterval: ISSUES_REFRESH_MS,
    staleTime: ISSUES_REFRESH_MS / 2,
  });
}

export async function changeIssue(
  issueId: string,
  change: { action: IssueAction; name: string; note: string },
): Promise<FailureIssue> {
  return (
    await apiRequest<{ issue: FailureIssue }>(`/api/issues/${encodeURIComponent(issueId)}`, {
      method: "POST",
      body: change,
    })
  ).issue;
}
