"use client";

import Link from "next/link";
import { useState } from "react";
import { formatCount } from "@/lib/domain/format-count";
import { bundleHref, webhookViewHref } from "@/lib/domain/log-view";
import { statusCodeLabel, statusMeaning } from "@/lib/domain/status-meaning";
import { isActive, issueLogView, type FailureIssue, type IssueState } from "@/lib/domain/watch/failure-issue";
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

/** A stable order, whatever happens to the issues meanwhile: the newest cause first. */
function byFirstFailure(a: FailureIssue, b: FailureIssue): number {
  return Date.parse(b.firstFailure.at) - Date.parse(a.firstFailure.at) || a.id.localeCompare(b.id);
}

/**
 * Failure issues, one line each (state, cause, count, since when), each opening in place to its
 * diagnosis, samples, links and actions. Acting on one keeps it where it is, open, with the
 * confirmation beside its buttons: an issue changed here stays in the list (with its new state)
 * until the page is left, even once it would no longer be listed, and the order never depends on
 * state. With `settled`, the resolved and ignored ones are folded away below the others.
 */
export function IssueLines({
  issues,
  shownIssue,
  settled = false,
}: {
  issues: FailureIssue[];
  /** The issue whose deliveries the page's table shows. */
  shownIssue?: string | null;
  /** List the resolved and ignored issues too, folded away. */
  settled?: boolean;
}) {
  const [changed, setChanged] = useState<ReadonlyMap<string, FailureIssue>>(new Map());
  const listed = new Map(issues.map((issue) => [issue.id, changed.get(issue.id) ?? issue]));
  for (const [id, issue] of changed) listed.set(id, issue);
  const all = [...listed.values()].sort(byFirstFailure);
  const kept = (issue: FailureIssue) => isActive(issue) || changed.has(issue.id);
  const onChanged = (issue: FailureIssue) => setChanged((before) => new Map(before).set(issue.id, issue));
  const line = (issue: FailureIssue) => (
    <IssueLine key={issue.id} issue={issue} shown={issue.id === shownIssue} onChanged={onChanged} />
  );
  const rest = settled ? all.filter((issue) => !kept(issue)) : [];
  return (
    <div className="space-y-2">
      <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">{all.filter(kept).map(line)}</ul>
      {rest.length > 0 ? (
        <details>
          <summary className="cursor-pointer text-sm font-medium">
            Resolved and ignored ({rest.length})
          </summary>
          <ul className="mt-1 divide-y divide-zinc-200 dark:divide-zinc-800">{rest.map(line)}</ul>
        </details>
      ) : null}
    </div>
  );
}

function IssueLine({
  issue,
  shown,
  onChanged,
}: {
  issue: FailureIssue;
  shown: boolean;
  onChanged: (issue: FailureIssue) => void;
}) {
  const meaning = statusMeaning(issue.statusCode);
  return (
    <li data-issue-id={issue.id}>
      <details className="group py-1 text-sm">
        <summary className="flex cursor-pointer flex-wrap items-baseline gap-x-2 gap-y-0.5">
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${STATE_STYLE[issue.state]}`}
          >
            {STATE_NAME[issue.state]}
          </span>
          {/* On a phone the code alone: the line stays one line. */}
          <span className="font-semibold">
            <span className="max-sm:hidden">{meaning.title}</span>
            <span className="sm:hidden">{statusCodeLabel(issue.statusCode)}</span>
          </span>
          <span className="min-w-0 truncate font-mono text-xs max-sm:hidden sm:max-w-[28rem]">
            {issue.signatureText || "(empty response body)"}
          </span>
          <span className="text-zinc-700 dark:text-zinc-300">
            {formatCount(issue.failures)} {issue.failures === 1 ? "failure" : "failures"} since{" "}
            <LocalTime iso={issue.firstFailure.at} form="short" />
          </span>
        </summary>
        <div className="mt-2 mb-2 space-y-2 border-l-2 border-zinc-200 pl-3 dark:border-zinc-700">
          <IssueDetails issue={issue} shown={shown} />
          <details>
            <summary className="cursor-pointer font-medium">{CHANGE_SUMMARY[issue.state]}</summary>
            <div className="mt-2">
              <IssueActions issue={issue} onChanged={onChanged} />
            </div>
          </details>
        </div>
      </details>
    </li>
  );
}

function IssueDetails({ issue, shown }: { issue: FailureIssue; shown: boolean }) {
  const meaning = statusMeaning(issue.statusCode);
  return (
    <>
      <p className="font-mono text-xs break-all">{issue.signatureText || "(empty response body)"}</p>
      <p>
        {formatCount(issue.failures)} {issue.failures === 1 ? "failure" : "failures"}, first{" "}
        <LocalTime iso={issue.firstFailure.at} />, last{" "}
        <LocalTime iso={issue.lastFailure.at} form="relative" />
      </p>
      <dl className="space-y-1">
        <div>
          <dt className="inline font-medium">Likely cause: </dt>
          <dd className="inline">{meaning.cause}</dd>
        </div>
        <div>
          <dt className="inline font-medium">What the customer must fix: </dt>
          <dd className="inline">{meaning.nextStep}</dd>
        </div>
      </dl>
      <History issue={issue} />
      <p className={MUTED}>
        Resolves by itself after {issue.resolveAfter} successful deliveries in a row; a new failure of this
        cause reopens it.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <Link
          href={webhookViewHref(issue.webhookId, { app: issue.appId, ...issueLogView(issue) })}
          aria-current={shown ? "true" : undefined}
          prefetch={false}
          className="btn btn-secondary aria-[current=true]:border-blue-700 aria-[current=true]:ring-1 aria-[current=true]:ring-blue-700"
        >
          Show its deliveries
        </Link>
        <Link
          href={webhookViewHref(issue.webhookId, { app: issue.appId, log: issue.lastFailure.logId })}
          prefetch={false}
          className="btn btn-secondary"
        >
          Compare with last success
        </Link>
        <Link
          href={bundleHref(issue.webhookId, { app: issue.appId, issue: issue.id })}
          prefetch={false}
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
                  prefetch={false}
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
    </>
  );
}

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
