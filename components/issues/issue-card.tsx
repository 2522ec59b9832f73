"use client";

import Link from "next/link";
import { useId, type ReactNode } from "react";
import { formatCount } from "@/lib/domain/format-count";
import { bundleHref, webhookViewHref } from "@/lib/domain/log-view";
import { statusMeaning } from "@/lib/domain/status-meaning";
import type { FailureIssue, IssueState } from "@/lib/domain/watch/failure-issue";
import { LocalTime } from "@/components/ui/local-time";
import { IssueActions } from "@/components/issues/issue-actions";

const STATE_STYLE: Record<IssueState, string> = {
  open: "bg-red-100 text-red-900 ring-red-300 dark:bg-red-950 dark:text-red-200 dark:ring-red-800",
  acknowledged:
    "bg-amber-100 text-amber-950 ring-amber-300 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-800",
  resolved:
    "bg-emerald-100 text-emerald-900 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-800",
  ignored: "bg-zinc-100 text-zinc-800 ring-zinc-300 dark:bg-zinc-800 dark:text-zinc-200 dark:ring-zinc-600",
};
const STATE_NAME: Record<IssueState, string> = {
  open: "Open",
  acknowledged: "Acknowledged",
  resolved: "Resolved",
  ignored: "Ignored",
};
const CHANGE_SUMMARY: Record<IssueState, string> = {
  open: "Acknowledge, resolve or ignore",
  acknowledged: "Update, resolve or ignore",
  resolved: "Reopen or ignore",
  ignored: "Reopen",
};
const MUTED = "text-xs text-zinc-600 dark:text-zinc-400";

/** What happened to the issue last, in a sentence: who acknowledged, resolved or ignored it, or how it resolved or reopened. */
function History({ issue }: { issue: FailureIssue }) {
  const change = issue.lastChange;
  const by = change ? (
    <>
      {" "}
      by <span className="font-medium">{change.name}</span>, <LocalTime iso={change.at} form="relative" />
      {change.note ? <>: &ldquo;{change.note}&rdquo;</> : null}
    </>
  ) : null;
  if (issue.state === "acknowledged") return <p>Acknowledged{by}.</p>;
  if (issue.state === "ignored") return <p>Ignored{by}. Its failures still count.</p>;
  if (issue.state === "resolved" && issue.resolved?.by === "auto") {
    return (
      <p>
        Resolved by itself: {issue.resolveAfter} successful deliveries in a row, the last{" "}
        <LocalTime iso={issue.resolved.at} form="relative" />.
      </p>
    );
  }
  if (issue.state === "resolved") return <p>Resolved{by}.</p>;
  if (issue.reopenedAt) {
    return (
      <p>
        Reopened <LocalTime iso={issue.reopenedAt} form="relative" />
        {change && Date.parse(change.at) >= Date.parse(issue.reopenedAt)
          ? by
          : ": it failed again after it was resolved"}
        .
      </p>
    );
  }
  return null;
}

/**
 * One failure issue: its cause (code, title, the body's signature), how many failures since
 * when, the likely cause and what the customer must fix, samples, what was done about it, and
 * its actions. `deliveries` is the control that shows its deliveries in a log table; beside it,
 * its newest failure compared with the last success (the delivery's dialog), and its hand-over
 * (the support bundle of its failures).
 */
export function IssueCard({
  issue,
  showWebhook,
  deliveries,
}: {
  issue: FailureIssue;
  /** On the overview: which watched webhook it is. */
  showWebhook?: boolean;
  deliveries: ReactNode;
}) {
  const titleId = useId();
  const meaning = statusMeaning(issue.statusCode);
  return (
    <article aria-labelledby={titleId} className="card space-y-2 p-3 text-sm" data-issue-id={issue.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={titleId} className="font-semibold">
          {meaning.title}
          {showWebhook ? <span className="font-normal"> · {issue.webhookName}</span> : null}
        </h3>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${STATE_STYLE[issue.state]}`}
        >
          {STATE_NAME[issue.state]}
        </span>
      </div>
      {showWebhook ? <p className={`break-all ${MUTED}`}>{issue.endpoint}</p> : null}
      <p className="font-mono text-xs break-all">{issue.signatureText || "(empty response body)"}</p>
      <p className="flex flex-wrap gap-x-1">
        <span className="font-semibold">
          {formatCount(issue.failures)} {issue.failures === 1 ? "failure" : "failures"},
        </span>{" "}
        <span>
          first <LocalTime iso={issue.firstFailure.at} />,
        </span>{" "}
        <span>
          last <LocalTime iso={issue.lastFailure.at} form="relative" />
        </span>
      </p>
      <dl className="space-y-1">
        <div>
          <dt className="font-medium">Likely cause: </dt>
          <dd>{meaning.cause}</dd>
        </div>
        <div>
          <dt className="font-medium">What the customer must fix: </dt>
          <dd>{meaning.nextStep}</dd>
        </div>
      </dl>
      <History issue={issue} />
      <p className={MUTED}>
        Resolves by itself after {issue.resolveAfter} successful deliveries in a row; a new failure of this
        cause reopens it.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        {deliveries}
        <Link
          href={webhookViewHref(issue.webhookId, { app: issue.appId, log: issue.lastFailure.logId })}
          className="btn btn-secondary"
        >
          Compare with last success
        </Link>
        <Link
          href={bundleHref(issue.webhookId, { app: issue.appId, issue: issue.id })}
          className="btn btn-secondary"
        >
          Hand over
        </Link>
      </div>
      {issue.samples.length > 0 ? (
        <details>
          <summary className="cursor-pointer font-medium">Samples ({issue.samples.length})</summary>
          <ul className="mt-2 space-y-2">
            {issue.samples.map((sample) => (
              <li key={sample.logId}>
                <Link
                  href={webhookViewHref(issue.webhookId, { app: issue.appId, log: sample.logId })}
                  className="btn-link font-mono text-xs"
                >
                  {sample.logId}
                </Link>{" "}
                <LocalTime iso={sample.at} className={MUTED} />
                <pre className="mt-1 max-h-32 overflow-auto rounded bg-zinc-100 p-2 text-xs whitespace-pre-wrap dark:bg-zinc-800">
                  {sample.body || "(empty)"}
                  {new TextEncoder().encode(sample.body).length < sample.bodySize ? "…" : ""}
                </pre>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <details>
        <summary className="cursor-pointer font-medium">{CHANGE_SUMMARY[issue.state]}</summary>
        <div className="mt-2">
          <IssueActions issue={issue} />
        </div>
      </details>
    </article>
  );
}
