import "server-only";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { IssueFilter } from "@/lib/domain/history/question";
import { AppError } from "@/lib/server/app-error";
import type { StoreContext } from "@/lib/server/store/context";
import { keptBody, storedSignature } from "@/lib/server/watch/cursor";

/**
 * Which deliveries are a failure issue's: its status code, and the cause signature of the body as
 * the watch keeps it (storedSignature), so the store's filter and `belongsToIssue` agree.
 */

/** Whether a log read from the hub is one of the issue's failures. */
export function belongsToIssue(
  issue: IssueFilter,
  log: Pick<WebhookLog, "status" | "statusCode" | "responseBody">,
  bodyCapBytes: number,
): boolean {
  return (
    log.statusCode === issue.statusCode &&
    storedSignature(log.status, log.statusCode, keptBody(log.responseBody, bodyCapBytes)) === issue.signature
  );
}

/**
 * The issue `issueId` of this webhook, watched by this application, as a filter with its first
 * failure's send time; a `bad_request` naming the field when there is none.
 */
export async function issueScope(ctx: StoreContext, appId: string, webhookId: string, issueId: string) {
  const row = await ctx.db
    .selectFrom("failure_issues")
    .innerJoin("watches", "watches.webhook_id", "failure_issues.webhook_id")
    .selectAll("failure_issues")
    .where("failure_issues.id", "=", issueId)
    .where("failure_issues.webhook_id", "=", webhookId)
    .where("watches.app_id", "=", appId)
    .executeTakeFirst();
  if (!row) {
    throw new AppError(
      "bad_request",
      "Failure issue: this webhook has no such issue under this application (it may have gone with its watch). " +
        "Clear the issue filter and pick one under Failure issues.",
      { fields: { issue: ["Failure issue: pick an issue listed under Failure issues."] } },
    );
  }
  return {
    filter: { id: row.id, statusCode: row.status_code, signature: row.signature },
    firstFailureAt: Number(row.first_failure_at),
  };
}
