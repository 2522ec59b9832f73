"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { useFirstOpen } from "@/lib/browser/use-first-open";
import { formatCount } from "@/lib/domain/format-count";
import type { FailureIssue, IssueState } from "@/lib/domain/watch/failure-issue";
import type { IssueView } from "@/lib/domain/watch/issue-view";
import { LocalTime } from "@/components/ui/local-time";
import { PartBoundary, PartUnavailable } from "@/components/ui/part-boundary";

/** The actions' form with its schema: a chunk of its own, loaded when the actions are opened. */
const IssueActions = dynamic(
  () => import("@/components/issues/issue-actions").then((loaded) => loaded.IssueActions),
  { loading: () => <p className="text-sm">Loading the form…</p> },
);

const CHANGE_SUMMARY: Record<IssueState, string> = {
  open: "Acknowledge, resolve or ignore",
  acknowledged: "Update, resolve or ignore",
  resolved: "Reopen or ignore",
  ignored: "Reopen",
};
const MUTED = "text-xs text-zinc-600 dark:text-zinc-400";

/** An issue's line, and what it opens to: the issue, whether the page's table shows its deliveries, what to do once it changed. */
export interface IssueLineProps {
  view: IssueView;
  shown: boolean;
  onChanged: (issue: FailureIssue) => void;
}

/**
 * What an issue's line opens to: its signature, counts and diagnosis, what was done about it,
 * its links (its deliveries, its newest failure beside the last success, its hand-over), its
 * samples, and its actions.
 */
export function IssueDetails({ view, shown, onChanged }: IssueLineProps) {
  const { issue, links } = view;
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
          <dd className="inline">{view.cause}</dd>
        </div>
        <div>
          <dt className="inline font-medium">What the customer must fix: </dt>
          <dd className="inline">{view.nextStep}</dd>
        </div>
      </dl>
      <History issue={issue} />
      <p className={MUTED}>
        Resolves by itself after {issue.resolveAfter} successful deliveries in a row; a new failure of this
        cause reopens it.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <Link
          href={links.deliveries}
          aria-current={shown ? "true" : undefined}
          prefetch={false}
          className="btn btn-secondary aria-[current=true]:border-blue-700 aria-[current=true]:ring-1 aria-[current=true]:ring-blue-700"
        >
          Show its deliveries
        </Link>
        <Link href={links.compare} prefetch={false} className="btn btn-secondary">
          Compare with last success
        </Link>
        <Link href={links.handOver} prefetch={false} className="btn btn-secondary">
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
                  href={links.samples[sample.logId] ?? links.compare}
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
      <ChangeIssue issue={issue} onChanged={onChanged} />
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

/** The actions on an issue, behind their own summary: their form is loaded when it is first opened. */
function ChangeIssue({
  issue,
  onChanged,
}: {
  issue: FailureIssue;
  onChanged: (issue: FailureIssue) => void;
}) {
  const { opened, details } = useFirstOpen();
  return (
    <details {...details}>
      <summary className="cursor-pointer font-medium">{CHANGE_SUMMARY[issue.state]}</summary>
      <div className="mt-2">
        {opened ? (
          <PartBoundary fallback={<PartUnavailable what="form" />}>
            <IssueActions issue={issue} onChanged={onChanged} />
          </PartBoundary>
        ) : null}
      </div>
    </details>
  );
}
