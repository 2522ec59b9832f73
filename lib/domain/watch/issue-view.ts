/**
 * A failure issue as its line shows it: its cause in words (status-meaning.ts) and the links of
 * what can be done from it, made where the issues are read (on the server for a webhook's page),
 * so the line itself carries no wording table and no routing code to the browser.
 */
import { bundleHref, webhookViewHref } from "@/lib/domain/log-view";
import { statusCodeLabel, statusMeaning } from "@/lib/domain/status-meaning";
import { issueLogView, type FailureIssue } from "@/lib/domain/watch/failure-issue";

export interface IssueView {
  issue: FailureIssue;
  /** "HTTP 500 Internal Server Error"; `label` is the code alone ("500", "No connection"). */
  title: string;
  label: string;
  cause: string;
  nextStep: string;
  links: {
    /** The webhook's table filtered to the issue's deliveries. */
    deliveries: string;
    /** Its newest failure opened, beside the last success. */
    compare: string;
    /** The support bundle of its failures. */
    handOver: string;
    /** Each sample delivery, by its log ID. */
    samples: Record<string, string>;
  };
}

export function issueView(issue: FailureIssue): IssueView {
  const meaning = statusMeaning(issue.statusCode);
  const open = (logId: string) => webhookViewHref(issue.webhookId, { app: issue.appId, log: logId });
  return {
    issue,
    title: meaning.title,
    label: statusCodeLabel(issue.statusCode),
    cause: meaning.cause,
    nextStep: meaning.nextStep,
    links: {
      deliveries: webhookViewHref(issue.webhookId, { app: issue.appId, ...issueLogView(issue) }),
      compare: open(issue.lastFailure.logId),
      handOver: bundleHref(issue.webhookId, { app: issue.appId, issue: issue.id }),
      samples: Object.fromEntries(issue.samples.map((sample) => [sample.logId, open(sample.logId)])),
    },
  };
}
