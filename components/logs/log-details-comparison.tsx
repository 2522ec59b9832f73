"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { useId, useMemo } from "react";
import { apiRequest } from "@/lib/browser/api";
import { useNow } from "@/lib/browser/use-now";
import {
  comparisonSummary,
  diffBodies,
  type BodyDiff,
  type ComparedLog,
  type LineChange,
} from "@/lib/domain/bundle/compare";
import { spanWords } from "@/lib/domain/bundle/time-words";
import { changesSentence, changeText, type WebhookChanges } from "@/lib/domain/bundle/webhook-changes";
import type { LastSuccessAnswer } from "@/lib/domain/bundle/last-success";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { statusCodeLabel } from "@/lib/domain/reason-phrase";
import { statusMeaning } from "@/lib/domain/status-meaning";
import { formatTimestamp, timeStyleAt } from "@/lib/domain/format-time";
import { LocalTime } from "@/components/ui/local-time";
import { HistorySourceLine } from "@/components/history/history-source";
import { QueryProvider } from "@/components/ui/query-provider";

/* "What changed since it last worked", in a failed delivery's details: the last success beside it. */

const MUTED = "text-xs text-zinc-600 dark:text-zinc-400";
const BOX = "rounded-lg border border-zinc-200 p-3 dark:border-zinc-800";

function lastSuccessQuery(log: WebhookLog) {
  return queryOptions({
    queryKey: ["webhooks", log.webhookId, "last-success", log.id],
    staleTime: Infinity,
    retry: false,
    queryFn: ({ signal }) =>
      apiRequest<LastSuccessAnswer>(
        `/api/webhooks/${encodeURIComponent(log.webhookId)}/logs/${encodeURIComponent(log.id)}/last-success`,
        { signal },
      ),
  });
}

/** The comparison with the query client it reads through (in the delivery's chunk: see QueryProvider). */
export function LastSuccessComparison({ log }: { log: WebhookLog }) {
  return (
    <QueryProvider>
      <Comparison log={log} />
    </QueryProvider>
  );
}

function Comparison({ log }: { log: WebhookLog }) {
  const headingId = useId();
  const { data, error, isPending } = useQuery(lastSuccessQuery(log));
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <h3 id={headingId} className="text-sm font-semibold">
        What changed since it last worked
      </h3>
      {isPending ? (
        <p role="status" className="text-sm">
          Looking for the last successful delivery before this one…
        </p>
      ) : error ? (
        <p role="alert" className="text-sm">
          The last successful delivery could not be read: {error.message}
        </p>
      ) : (
        <Compared failed={log} answer={data} />
      )}
    </section>
  );
}

function Compared({ failed, answer }: { failed: WebhookLog; answer: LastSuccessAnswer }) {
  const now = useNow();
  const success = answer.lastSuccess;
  // The diff once per pair of bodies; the sentence again as the clock moves ("yesterday").
  const diff = useMemo(
    () => (success ? diffBodies(success.responseBody, failed.responseBody) : null),
    [success, failed.responseBody],
  );
  const summary = comparisonSummary(failed, success, {
    // Before mount (no clock yet) the sentence is said in UTC, as the server would.
    now: now || Date.parse(failed.sendAt),
    timeZone: now ? Intl.DateTimeFormat().resolvedOptions().timeZone : "UTC",
  });
  return (
    <div className="space-y-3">
      <p role="status" className="text-sm font-medium">
        {summary}
      </p>
      {answer.partial ? <p className={MUTED}>{answer.partial}</p> : null}
      <HistorySourceLine source={answer.source} />
      {success ? (
        <>
          <div className="grid gap-3 sm:grid-cols-2">
            <Side title="Last success" log={success} />
            <Side title="This failure" log={failed} />
          </div>
          <p className="text-sm">
            {spanWords(Date.parse(failed.sendAt) - Date.parse(success.sendAt))} between them.{" "}
            {success.statusCode === failed.statusCode
              ? `Both answered ${statusCodeLabel(failed.statusCode)}.`
              : `${statusCodeLabel(success.statusCode)} then, ${statusCodeLabel(failed.statusCode)} now.`}
          </p>
          {answer.changes ? <Changes changes={answer.changes} successAt={success.sendAt} /> : null}
          {diff ? <Diff diff={diff} before={success} after={failed} /> : null}
        </>
      ) : null}
    </div>
  );
}

/** The webhook's own changes between the two, from the watch's timeline; or why they are not known. */
function Changes({ changes, successAt }: { changes: WebhookChanges; successAt: string }) {
  const headingId = useId();
  const style = timeStyleAt(useNow());
  const sentence = changesSentence(changes, successAt, (iso) => formatTimestamp(iso, style));
  return (
    <section aria-labelledby={headingId} className="space-y-1">
      <h4 id={headingId} className="text-sm font-medium">
        The webhook&apos;s own changes
      </h4>
      <p className="text-sm">{sentence}</p>
      {changes.known && changes.events.length > 0 ? (
        <ul className={`${BOX} space-y-1 text-xs`}>
          {changes.more > 0 ? <li className={MUTED}>…{changes.more} earlier</li> : null}
          {changes.events.map((event) => (
            <li key={`${event.kind}:${event.at}`}>
              <LocalTime iso={event.at} className="font-mono" />: {changeText(event)}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function Side({ title, log }: { title: string; log: ComparedLog }) {
  return (
    <div className={BOX}>
      <p className="text-xs font-semibold tracking-wide uppercase">{title}</p>
      <p className="text-sm font-medium">{statusMeaning(log.statusCode).title}</p>
      <p className="text-sm">
        <LocalTime iso={log.sendAt} />
      </p>
      <p className={`font-mono break-all ${MUTED}`}>Log ID {log.id}</p>
    </div>
  );
}

function Diff({ diff, before, after }: { diff: BodyDiff; before: ComparedLog; after: ComparedLog }) {
  if (diff.kind === "identical") return <p className="text-sm">The response bodies are the same.</p>;
  if (diff.kind === "too_large") {
    return (
      <div className="space-y-2 text-sm">
        <p>{diff.message}</p>
        <RawBody title="Raw body of the last success" body={before.responseBody} />
        <RawBody title="Raw body of this failure" body={after.responseBody} />
      </div>
    );
  }
  if (diff.kind === "json") {
    return (
      <div className="space-y-1">
        <p className="text-sm">
          Response bodies, field by field (both JSON). Ids and times, expected to differ, are marked
          &ldquo;volatile&rdquo;.
        </p>
        <ul aria-label="Changed fields" className={`${BOX} space-y-1 font-mono text-xs break-all`}>
          {diff.changes.map((change) => (
            <li key={`${change.kind}:${change.path}`} className={change.volatile ? MUTED : undefined}>
              <span className="font-semibold">{change.path}</span> {change.kind}
              {change.volatile ? " (volatile)" : ""}: {change.before ?? "–"} → {change.after ?? "–"}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return (
    <div className="space-y-1">
      <p className="text-sm">
        Response bodies, line by line: − only in the last success, + only in this failure; lines that differ
        only in ids or times are marked &ldquo;volatile&rdquo;.
      </p>
      <pre
        tabIndex={0}
        aria-label="Response bodies, line by line"
        className={`${BOX} max-h-[40vh] overflow-auto font-mono text-xs leading-relaxed break-all whitespace-pre-wrap`}
      >
        {diff.lines.map((line, i) => (
          <span key={i} className={`block ${line.volatile ? MUTED : LINE_TONE[line.op]}`}>
            {LINE_MARK[line.op]}
            {line.text}
            {line.volatile ? "  (volatile)" : ""}
          </span>
        ))}
      </pre>
    </div>
  );
}

/** A line only in the failure is tinted red, one only in the last success green; the mark says it too. */
const LINE_TONE: Record<LineChange["op"], string> = {
  same: "",
  added: "bg-red-50 dark:bg-red-950/40",
  removed: "bg-emerald-50 dark:bg-emerald-950/40",
};
const LINE_MARK: Record<LineChange["op"], string> = { same: "  ", added: "+ ", removed: "− " };

function RawBody({ title, body }: { title: string; body: string }) {
  return (
    <details className={BOX}>
      <summary className="cursor-pointer font-medium">{title}</summary>
      <pre
        tabIndex={0}
        className="mt-2 max-h-[30vh] overflow-auto font-mono text-xs break-all whitespace-pre-wrap"
      >
        {body}
      </pre>
    </details>
  );
}
