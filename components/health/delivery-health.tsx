"use client";

import { useState } from "react";
import { useNow } from "@/lib/browser/use-now";
import { useScan } from "@/lib/browser/use-scan";
import { timeStyleAt } from "@/lib/domain/format-time";
import { chartSummary, formatBucketRange, streakCodesText, streakText } from "@/lib/domain/health-text";
import {
  DEFAULT_HEALTH_WINDOW,
  HEALTH_WINDOWS,
  type FailingStreak,
  type HealthBucket,
  type HealthSummary,
  type HealthWindow,
} from "@/lib/domain/history/health";
import type { ScanPartial } from "@/lib/domain/scan-answer";
import { statusCodeLabel, statusMeaning } from "@/lib/domain/status-meaning";
import { AttemptsChart } from "@/components/health/attempts-chart";
import { HistorySourceLine } from "@/components/history/history-source";
import { ScanProgress } from "@/components/history/scan-progress";
import { DescriptionItem } from "@/components/ui/description-item";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import { formatCount } from "@/lib/domain/format-count";

/** Codes listed under "Failures by status code"; the rest are counted. */
const TOP_CODES = 5;

const WINDOW_LABELS: Record<HealthWindow, string> = { "1h": "1 h", "24h": "24 h", "7d": "7 d" };

/** What a click in the region asks the log table to show. */
export interface HealthFilter {
  code?: number;
  since?: string;
  until?: string;
}

/**
 * The "Delivery health" region's body: the most recent window of deliveries (1 h, 24 h or 7 d,
 * from the watch's store or a server-side scan, which it says), as a chart and numbers. Rendered after the rows, in its own chunk.
 */
export default function DeliveryHealth({
  webhookId,
  onFilter,
}: {
  webhookId: string;
  onFilter: (filter: HealthFilter) => void;
}) {
  const [window, setWindow] = useState<HealthWindow>(DEFAULT_HEALTH_WINDOW);
  const scan = useScan(`/api/webhooks/${encodeURIComponent(webhookId)}/history/health?window=${window}`);
  const result = scan.status === "done" ? scan.result : "previous" in scan ? scan.previous : null;

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2 text-sm" role="group" aria-label="Health window">
        <span className="font-medium">Last</span>
        {(Object.keys(HEALTH_WINDOWS) as HealthWindow[]).map((pick) => (
          <button
            key={pick}
            type="button"
            className="btn btn-small aria-pressed:border-blue-700 aria-pressed:bg-blue-700 aria-pressed:text-white dark:aria-pressed:border-blue-400 dark:aria-pressed:bg-blue-400 dark:aria-pressed:text-zinc-950"
            aria-pressed={pick === window}
            onClick={() => setWindow(pick)}
          >
            {WINDOW_LABELS[pick]}
          </button>
        ))}
        {scan.status === "running" ? <ScanProgress progress={scan.progress} onCancel={scan.cancel} /> : null}
        {scan.status === "cancelled" ? (
          <span className="text-xs">
            Cancelled.{" "}
            <button type="button" className="btn-link" onClick={scan.rerun}>
              Read again
            </button>
          </span>
        ) : null}
      </div>
      {scan.status === "failed" ? (
        <Notice tone="error" role="alert" title="Delivery health could not be read">
          <p>{scan.error.message}</p>
          <button type="button" className="btn btn-secondary" onClick={scan.rerun}>
            Try again
          </button>
        </Notice>
      ) : null}
      {result ? <HistorySourceLine source={result.source} /> : null}
      {result ? <PartialNotice partial={result.partial} onRetry={scan.rerun} /> : null}
      {result ? (
        <HealthBody summary={result.summary} read={result.read} onFilter={onFilter} />
      ) : scan.status === "running" ? (
        <p role="status" className="text-sm">
          Reading the last {WINDOW_LABELS[window]} of deliveries…
        </p>
      ) : null}
    </div>
  );
}

function PartialNotice({ partial, onRetry }: { partial: ScanPartial; onRetry: () => void }) {
  if (!partial) return null;
  return (
    <Notice tone="warning" title="Partial: these figures do not cover the whole window">
      <p>{partial.message}</p>
      {partial.reason === "failed" ? (
        <button type="button" className="btn btn-secondary" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </Notice>
  );
}

function HealthBody({
  summary,
  read,
  onFilter,
}: {
  summary: HealthSummary;
  read: number;
  onFilter: (filter: HealthFilter) => void;
}) {
  const style = timeStyleAt(useNow());
  if (summary.attempts === 0) {
    return (
      <div className="space-y-2">
        <p className="text-sm">No delivery attempts in this window ({formatCount(read)} read).</p>
        {summary.failingStreak ? <FailingSince streak={summary.failingStreak} withCodes /> : null}
      </div>
    );
  }
  const pickBucket = (bucket: HealthBucket) =>
    onFilter({
      since: bucket.start,
      until: new Date(Date.parse(bucket.start) + summary.bucketMs - 1).toISOString(),
    });
  const codes = summary.failuresByCode.slice(0, TOP_CODES);
  const moreCodes = summary.failuresByCode.length - codes.length;
  return (
    <div className="grid gap-x-6 gap-y-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="space-y-3">
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
          <DescriptionItem label="Success rate" valueClassName="text-lg font-semibold">
            {summary.successRate}%
          </DescriptionItem>
          <DescriptionItem label="Attempts">
            {formatCount(summary.attempts)} ({formatCount(summary.failed)} failed)
          </DescriptionItem>
          <DescriptionItem label="Last success">
            {summary.lastSuccess ? (
              <LocalTime iso={summary.lastSuccess.at} form="relative" />
            ) : (
              "none in this window"
            )}
          </DescriptionItem>
          <DescriptionItem label="Last failure">
            {summary.lastFailure ? (
              <LocalTime iso={summary.lastFailure.at} form="relative" />
            ) : (
              "none in this window"
            )}
          </DescriptionItem>
        </dl>
        {summary.failingStreak ? <FailingSince streak={summary.failingStreak} /> : null}
        <AttemptsChart
          buckets={summary.buckets}
          bucketMs={summary.bucketMs}
          summary={chartSummary(summary, style)}
          style={style}
          onPickBucket={pickBucket}
        />
        <details className="text-sm">
          <summary className="cursor-pointer font-medium">Attempts per bar, as a table</summary>
          <table className="mt-2 w-full text-left text-xs">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Succeeded</th>
                <th scope="col">Failed</th>
                <th scope="col">
                  <span className="sr-only">Filter</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {summary.buckets.map((bucket) => (
                <tr key={bucket.start}>
                  <td>{formatBucketRange(bucket.start, summary.bucketMs, style)}</td>
                  <td>{bucket.success}</td>
                  <td>{bucket.failed}</td>
                  <td>
                    {bucket.success + bucket.failed > 0 ? (
                      <button type="button" className="btn-link" onClick={() => pickBucket(bucket)}>
                        Show these
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </div>
      {codes.length > 0 ? (
        <div className="space-y-1">
          <h3 className="text-sm font-semibold">Failures by status code</h3>
          <ul className="space-y-1 text-sm">
            {codes.map(({ statusCode, count }) => (
              <li key={statusCode} className="flex flex-wrap items-baseline gap-x-2">
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => onFilter({ code: statusCode, since: summary.from ?? undefined })}
                  aria-label={`Show the ${count} failures with ${statusCodeLabel(statusCode)} in this window`}
                >
                  {statusCodeLabel(statusCode)}
                </button>
                <span className="font-medium">{formatCount(count)}×</span>
                <span className="text-zinc-700 dark:text-zinc-300">{statusMeaning(statusCode).cause}</span>
              </li>
            ))}
          </ul>
          {moreCodes > 0 ? (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              and {moreCodes} more {moreCodes === 1 ? "code" : "codes"}: filter the table by HTTP status to
              see them.
            </p>
          ) : null}
          {summary.failingStreak ? <StreakCodes streak={summary.failingStreak} /> : null}
        </div>
      ) : (
        <div className="space-y-1">
          <p className="text-sm">No failures in this window.</p>
          {summary.failingStreak ? <StreakCodes streak={summary.failingStreak} /> : null}
        </div>
      )}
    </div>
  );
}

/**
 * Where the webhook's current failing streak began (read past the window when it began earlier),
 * in the viewer's zone, with the date whenever it is not today.
 */
function FailingSince({ streak, withCodes = false }: { streak: FailingStreak; withCodes?: boolean }) {
  return (
    <div className="space-y-1">
      <p className="text-sm">
        {/* "before" when the read stopped (its cap) before reaching the streak's start. */}
        <strong>Failing since</strong> {streak.atLeast ? "before " : ""}
        <LocalTime iso={streak.since} form="short" /> — {streakText(streak)}
      </p>
      {withCodes ? <StreakCodes streak={streak} /> : null}
    </div>
  );
}

/** Which codes make up the current streak (the list above it counts the window's). */
function StreakCodes({ streak }: { streak: FailingStreak }) {
  return (
    <p className="text-sm">
      <span className="font-medium">In the current streak:</span> {streakCodesText(streak)}
    </p>
  );
}
