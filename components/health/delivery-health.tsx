import type { ReactNode } from "react";
import { FIRST_RENDER } from "@/lib/domain/format-time";
import { chartSummary, streakCodesText } from "@/lib/domain/health-text";
import type { HistorySource } from "@/lib/domain/history/answer-source";
import { type HealthBucket, type HealthSummary, type HealthWindow } from "@/lib/domain/history/health";
import type { ScanPartial } from "@/lib/domain/scan-answer";
import { statusCodeLabel, statusMeaning } from "@/lib/domain/status-meaning";
import { formatCount } from "@/lib/domain/format-count";
import { AttemptsChart, ChartPlaceholder } from "@/components/health/attempts-chart";
import { BucketTime } from "@/components/health/bucket-time";
import { HealthLinks } from "@/components/health/health-links";
import { HealthWindowNav, WINDOW_LABELS } from "@/components/health/health-window-nav";
import { HistorySourceLine } from "@/components/history/history-source";
import { DescriptionItem } from "@/components/ui/description-item";
import { Moment } from "@/components/ui/moment";
import { Notice } from "@/components/ui/notice";

/** Codes listed under "Failures by status code"; the rest are counted. */
const TOP_CODES = 5;

/** The answer's columns (the numbers and the chart; the failures by code), shared with its placeholder. */
const BODY_GRID = "grid gap-x-6 gap-y-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]";

/** What a link of the region asks the log table to show. */
export interface HealthFilter {
  code?: number;
  since?: string;
  until?: string;
}

/**
 * "Delivery health" at the top of the webhook page: the window's picks (links: the window is the
 * page's `?health=`) and, below, what answers it (the summary, or the reading's progress).
 */
export function HealthRegion({ window, children }: { window: HealthWindow; children: ReactNode }) {
  return (
    <section aria-labelledby="health-heading" className="card space-y-3 p-4">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <h2 id="health-heading" className="text-base font-semibold">
          Delivery health
        </h2>
        <HealthWindowNav window={window} />
      </div>
      {children}
    </section>
  );
}

/**
 * While the region's answer is being made: its shape (the numbers, the chart's box, the codes), so
 * that the page below does not move when the answer takes its place.
 */
export function HealthPending({ window }: { window: HealthWindow }) {
  return (
    <div className="space-y-3">
      <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
        Reading the last {WINDOW_LABELS[window]} of deliveries…
      </p>
      <div aria-hidden="true" className={BODY_GRID}>
        <div className="min-w-0 space-y-3">
          <HealthNumbers successRate="…" attempts="…" lastSuccess="…" lastFailure="…" />
          <ChartPlaceholder />
          <p className="text-sm">&nbsp;</p>
        </div>
        <div className="min-w-0 space-y-1 text-sm">
          <p>&nbsp;</p>
          {Array.from({ length: TOP_CODES }, (_, index) => (
            <p key={index} className="btn btn-small invisible block">
              &nbsp;
            </p>
          ))}
        </div>
      </div>
    </div>
  );
}

/**
 * The region's answer: the window's deliveries as numbers and a chart, failures by status code,
 * the codes of the current failing streak, and what the answer covers. Each count links to its
 * deliveries in the table (`filterHref`), followed in the page by HealthLinks.
 */
export function DeliveryHealth({
  summary,
  read,
  source,
  partial,
  filterHref,
  retry,
}: {
  summary: HealthSummary;
  read: number;
  source: HistorySource;
  partial: ScanPartial;
  filterHref: (filter: HealthFilter) => string;
  /** Reads the window again (a partial answer's Try again). */
  retry: ReactNode;
}) {
  return (
    <HealthLinks className="space-y-3">
      <HistorySourceLine source={source} />
      {partial ? (
        <Notice tone="warning" title="Partial: these figures do not cover the whole window">
          <p>{partial.message}</p>
          {partial.reason === "failed" ? retry : null}
        </Notice>
      ) : null}
      {summary.attempts === 0 ? (
        <div className="space-y-2 text-sm">
          <p>No delivery attempts in this window ({formatCount(read)} read).</p>
          {summary.failingStreak ? <StreakCodes summary={summary} /> : null}
        </div>
      ) : (
        <HealthBody summary={summary} asOf={Date.parse(source.asOf)} filterHref={filterHref} />
      )}
    </HealthLinks>
  );
}

function HealthBody({
  summary,
  asOf,
  filterHref,
}: {
  summary: HealthSummary;
  /** When the answer was made (ms since the epoch). */
  asOf: number;
  filterHref: (filter: HealthFilter) => string;
}) {
  const bucketHref = (bucket: HealthBucket) =>
    filterHref({
      since: bucket.start,
      until: new Date(Date.parse(bucket.start) + summary.bucketMs - 1).toISOString(),
    });
  const codes = summary.failuresByCode.slice(0, TOP_CODES);
  const moreCodes = summary.failuresByCode.length - codes.length;
  return (
    <div className={BODY_GRID}>
      <div className="min-w-0 space-y-3">
        <HealthNumbers
          successRate={`${summary.successRate}%`}
          attempts={`${formatCount(summary.attempts)} (${formatCount(summary.failed)} failed)`}
          lastSuccess={<LastAttempt attempt={summary.lastSuccess} asOf={asOf} />}
          lastFailure={<LastAttempt attempt={summary.lastFailure} asOf={asOf} />}
        />
        <AttemptsChart
          buckets={summary.buckets}
          bucketMs={summary.bucketMs}
          summary={chartSummary(summary, FIRST_RENDER)}
          bucketHref={bucketHref}
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
                  <span className="sr-only">Deliveries</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {summary.buckets.map((bucket) => (
                <tr key={bucket.start}>
                  <td>
                    <BucketTime start={bucket.start} bucketMs={summary.bucketMs} form="range" />
                  </td>
                  <td>{bucket.success}</td>
                  <td>{bucket.failed}</td>
                  <td>
                    {bucket.success + bucket.failed > 0 ? (
                      <a href={bucketHref(bucket)} className="btn-link">
                        Show these
                      </a>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </div>
      <div className="min-w-0 space-y-1">
        {codes.length > 0 ? (
          <>
            <h3 className="text-sm font-semibold">Failures by status code</h3>
            <ul className="space-y-1 text-sm">
              {codes.map(({ statusCode, count }) => {
                const cause = statusMeaning(statusCode).cause;
                return (
                  <li key={statusCode} className="flex min-w-0 items-baseline gap-x-2">
                    <a
                      href={filterHref({ code: statusCode, since: summary.from ?? undefined })}
                      className="btn btn-small"
                      aria-label={`Show the ${count} failures with ${statusCodeLabel(statusCode)} in this window`}
                    >
                      {statusCodeLabel(statusCode)}
                    </a>
                    <span className="font-medium whitespace-nowrap">{formatCount(count)}×</span>
                    {/* One line each: the whole cause is the line's title, and the delivery's details say it in full. */}
                    <span className="truncate text-zinc-700 dark:text-zinc-300" title={cause}>
                      {cause}
                    </span>
                  </li>
                );
              })}
            </ul>
            {moreCodes > 0 ? (
              <p className="text-xs text-zinc-600 dark:text-zinc-400">
                and {moreCodes} more {moreCodes === 1 ? "code" : "codes"} (filter by HTTP status)
              </p>
            ) : null}
          </>
        ) : (
          <p className="text-sm">No failures in this window.</p>
        )}
        {summary.failingStreak ? <StreakCodes summary={summary} /> : null}
      </div>
    </div>
  );
}

/** The window's numbers above the chart. */
function HealthNumbers({
  successRate,
  attempts,
  lastSuccess,
  lastFailure,
}: Record<"successRate" | "attempts" | "lastSuccess" | "lastFailure", ReactNode>) {
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
      <DescriptionItem label="Success rate" valueClassName="text-lg font-semibold">
        {successRate}
      </DescriptionItem>
      <DescriptionItem label="Attempts">{attempts}</DescriptionItem>
      <DescriptionItem label="Last success">{lastSuccess}</DescriptionItem>
      <DescriptionItem label="Last failure">{lastFailure}</DescriptionItem>
    </dl>
  );
}

/**
 * When the window's last success or failure was, how long ago counted from the answer's own time
 * (`asOf`) until the browser writes it on its clock: the same line either way, so nothing moves.
 */
function LastAttempt({ attempt, asOf }: { attempt: { at: string } | null; asOf: number }) {
  return attempt ? <Moment iso={attempt.at} form="relative" now={0} asOf={asOf} /> : "none in this window";
}

/** Which codes make up the current failing streak (the list above counts the window's). */
function StreakCodes({ summary }: { summary: HealthSummary }) {
  return (
    <p className="text-sm">
      <span className="font-medium">In the current streak:</span> {streakCodesText(summary.failingStreak!)}
    </p>
  );
}
