import "server-only";
import { listIssues } from "@/lib/server/watch/failure-issues";
import { withStore } from "@/lib/server/store/context";
import type { Webhook, WebhookLog } from "@/lib/domain/hub-schemas";
import { buildBundle, type SupportBundle } from "@/lib/domain/bundle/bundle";
import { bundleRequestOf, type BundleAsk } from "@/lib/domain/bundle/bundle-request";
import { RedactionError } from "@/lib/domain/redact";
import type { FailureIssue } from "@/lib/domain/watch/failure-issue";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { getWebhook } from "@/lib/server/hub/client";
import type { WebhookId } from "@/lib/server/hub/path-params";
import type { HistoryCall } from "@/lib/server/history/answer";
import { webhookChanges } from "@/lib/server/bundle/last-success";
import { readIncident } from "@/lib/server/bundle/read-incident";
import { belongsToIssue } from "@/lib/server/watch/issue-logs";

/**
 * The redacted support bundle of a webhook over a window, or of one of its failure issues, for
 * the route and the preview page. Besides the default rules and REDACT_PATTERNS, the session's
 * own API key is masked wherever it appears. A pattern that fails means no bundle: the error
 * names it. `appId`: the application whose key `call` holds (its watch has the issues and the
 * webhook's timeline). `readWebhook`: the caller's own read of the webhook, when it has one (the
 * bundle page's tab title reads it too).
 */
export async function supportBundle(
  call: HistoryCall,
  webhookId: WebhookId,
  ask: BundleAsk,
  { now = Date.now(), readWebhook }: { now?: number; readWebhook?: () => Promise<Webhook> } = {},
): Promise<SupportBundle> {
  const config = serverConfig();
  const issue = ask.issue ? await issueOf(call.appId, webhookId, ask.issue) : null;
  const request = bundleRequestOf(
    ask,
    now,
    issue && { from: Date.parse(issue.firstFailure.at), to: Date.parse(issue.lastFailure.at) },
  );
  const focus = issue
    ? (log: WebhookLog) => belongsToIssue(issue, log, config.watch.bodyCapBytes)
    : undefined;
  const [webhook, { incident, partial }] = await Promise.all([
    readWebhook ? readWebhook() : getWebhook(call, webhookId),
    readIncident(call, webhookId, request, config.history.cap, focus),
  ]);
  const changes =
    incident.newestFailure && incident.lastSuccess
      ? await webhookChanges(call.appId, webhookId, {
          from: incident.lastSuccess.sendAt,
          to: incident.newestFailure.sendAt,
        })
      : null;
  try {
    return buildBundle({
      webhook,
      incident,
      timeZone: request.timeZone,
      now,
      partial,
      redaction: { patterns: config.redactPatterns, literals: [call.apiKey] },
      issue,
      changes,
    });
  } catch (error) {
    if (error instanceof RedactionError) {
      throw new AppError(
        "internal",
        `No support bundle was produced, because redaction failed: ${error.message} ` +
          "Ask the console's operator to fix REDACT_PATTERNS.",
      );
    }
    throw error;
  }
}

/** The failure issue of this webhook the application's watch has; `not_found` (naming the field) otherwise. */
async function issueOf(appId: string, webhookId: WebhookId, issueId: string): Promise<FailureIssue> {
  const issues = await withStore((ctx) => listIssues(ctx, [appId], { webhookId }));
  const issue = issues.find((candidate) => candidate.id === issueId);
  if (issue) return issue;
  const message = `Failure issue ${issueId} is not an issue of this webhook watched by this application. Open the bundle from the issue's card.`;
  throw new AppError("not_found", message, { fields: { issue: [message] } });
}
