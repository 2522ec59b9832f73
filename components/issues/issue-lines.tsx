"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { useFirstOpen } from "@/lib/browser/use-first-open";
import { formatCount } from "@/lib/domain/format-count";
import { isActive, type IssueState } from "@/lib/domain/watch/failure-issue";
import type { IssueView } from "@/lib/domain/watch/issue-view";
import type { IssueLineProps } from "@/components/issues/issue-details";
import { LocalTime } from "@/components/ui/local-time";
import { PartBoundary, PartUnavailable } from "@/components/ui/part-boundary";

/** What a line opens to: its diagnosis, links and actions. */
const IssueDetails = dynamic(
  () => import("@/components/issues/issue-details").then((loaded) => loaded.IssueDetails),
  { ssr: false, loading: () => <p className="text-sm">Loading…</p> },
);

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
/** A stable order, whatever happens to the issues meanwhile: the newest cause first. */
function byFirstFailure({ issue: a }: IssueView, { issue: b }: IssueView): number {
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
  /** The issues, each with its words and links (issue-view.ts). */
  issues: IssueView[];
  /** The issue whose deliveries the page's table shows. */
  shownIssue?: string | null;
  /** List the resolved and ignored issues too, folded away. */
  settled?: boolean;
}) {
  const [changed, setChanged] = useState<ReadonlyMap<string, IssueView>>(new Map());
  const listed = new Map(issues.map((view) => [view.issue.id, view]));
  for (const [id, view] of changed) listed.set(id, view);
  const all = [...listed.values()].sort(byFirstFailure);
  const kept = ({ issue }: IssueView) => isActive(issue) || changed.has(issue.id);
  const line = (view: IssueView) => (
    <IssueLine
      key={view.issue.id}
      view={view}
      shown={view.issue.id === shownIssue}
      onChanged={(issue) => setChanged((before) => new Map(before).set(issue.id, { ...view, issue }))}
    />
  );
  const rest = settled ? all.filter((view) => !kept(view)) : [];
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

function IssueLine({ view, shown, onChanged }: IssueLineProps) {
  const { issue } = view;
  // What the line opens to is a chunk of its own, loaded when a line is first opened (then kept).
  const { opened, details } = useFirstOpen();
  return (
    <li data-issue-id={issue.id}>
      <details {...details} className="group py-1 text-sm">
        <summary className="flex cursor-pointer flex-wrap items-baseline gap-x-2 gap-y-0.5">
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${STATE_STYLE[issue.state]}`}
          >
            {STATE_NAME[issue.state]}
          </span>
          {/* On a phone the code alone: the line stays one line. */}
          <span className="font-semibold">
            <span className="max-sm:hidden">{view.title}</span>
            <span className="sm:hidden">{view.label}</span>
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
          {opened ? (
            <PartBoundary fallback={<PartUnavailable what="issue's details" />}>
              <IssueDetails view={view} shown={shown} onChanged={onChanged} />
            </PartBoundary>
          ) : null}
        </div>
      </details>
    </li>
  );
}
