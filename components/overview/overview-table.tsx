import Link from "next/link";
import type { ApplicationSummary } from "@/lib/domain/applications";
import { formatCount } from "@/lib/domain/format-count";
import {
  FIRST_RENDER,
  formatExactUtc,
  formatRelative,
  formatShortTime,
  VIEWER,
} from "@/lib/domain/format-time";
import { webhookViewHref } from "@/lib/domain/log-view";
import { statusMeaning } from "@/lib/domain/status-meaning";
import { inMaintenance, isFailing, type OverviewRow } from "@/lib/domain/watch/overview";
import { formatAge } from "@/lib/domain/format-age";
import { Sparkline } from "@/components/overview/sparkline";
import { MaintenanceMarker } from "@/components/maintenance/maintenance-marker";

const MUTED = "text-xs text-zinc-600 dark:text-zinc-400";

interface Clock {
  /** ms since the epoch: the browser's clock once mounted, else the answer's time. */
  now: number;
  /** Before mount the server cannot know the viewer's time zone: times are UTC, and say so. */
  local: boolean;
}

/** A moment in the short form; with `relative`, how long ago when under a day. */
function When({ iso, clock, relative = false }: { iso: string; clock: Clock; relative?: boolean }) {
  const style = clock.local ? VIEWER : FIRST_RENDER;
  const text = (relative && formatRelative(iso, clock.now)) || formatShortTime(iso, clock.now, style);
  return (
    <time dateTime={iso} title={formatExactUtc(iso, style)}>
      {text}
    </time>
  );
}

/** How fresh the row is: `12 s ago`. */
function Age({ iso, clock }: { iso: string; clock: Clock }) {
  return (
    <time dateTime={iso} title={formatExactUtc(iso, clock.local ? VIEWER : FIRST_RENDER)}>
      {`${formatAge(iso, clock.now)} ago`}
    </time>
  );
}

function State({ row }: { row: OverviewRow }) {
  const notes = [row.keyRejected ? "Key rejected" : null, row.pollError ? "Poll failing" : null].filter(
    Boolean,
  );
  return (
    <>
      <span className="font-medium">
        {row.active === null ? "Not read yet" : row.active ? "Active" : "Inactive"}
      </span>
      {notes.map((note) => (
        <span key={note} className="block text-xs font-semibold text-amber-900 dark:text-amber-200">
          {note}
        </span>
      ))}
      {row.pollError ? (
        <span className={`block ${MUTED}`} title={row.pollError.message}>
          {row.pollError.message}
        </span>
      ) : null}
    </>
  );
}

function SuccessRate({ row }: { row: OverviewRow }) {
  const summary =
    row.attempts24h === 0
      ? "No deliveries in 24 h"
      : `${formatCount(row.attempts24h)} deliveries in 24 h, ${formatCount(row.failed24h)} failed`;
  return (
    <div className="flex items-center gap-2">
      <span
        className={`w-14 font-semibold tabular-nums ${row.failed24h ? "text-red-800 dark:text-red-300" : ""}`}
      >
        {row.successRate24h === null ? "–" : `${row.successRate24h} %`}
      </span>
      <Sparkline hours={row.hours} label={`Last 24 h by hour: ${summary}`} />
    </div>
  );
}

function FailingSince({ row, clock }: { row: OverviewRow; clock: Clock }) {
  const streak = row.failingStreak;
  const maintenance = <MaintenanceMarker maintenance={row.maintenance} now={clock.now} local={clock.local} />;
  // In a maintenance window its failures are expected: the marker says so instead of the streak.
  if (!streak || inMaintenance(row))
    return (
      <>
        {streak ? null : <span className={MUTED}>Not failing</span>}
        {maintenance}
      </>
    );
  return (
    <>
      <span className="font-semibold text-red-800 dark:text-red-300">
        {/* The watch holds no success before this failure, so the streak began earlier still. */}
        {streak.atLeast ? "since before " : "since "}
        <When iso={streak.since} clock={clock} />
      </span>
      <span className={`block ${MUTED}`}>
        {`${streak.atLeast ? "at least " : ""}${formatCount(streak.length)} ${streak.length === 1 ? "failure" : "failures"} in a row`}
      </span>
      {maintenance}
    </>
  );
}

function LastFailure({ row, clock }: { row: OverviewRow; clock: Clock }) {
  const failure = row.lastFailure;
  if (!failure) return <span className={MUTED}>None stored</span>;
  const meaning = statusMeaning(failure.statusCode);
  return (
    <>
      <span className="font-medium">{meaning.title}</span> · <When iso={failure.at} clock={clock} relative />
      <span className={`block max-w-xs ${MUTED}`}>{meaning.cause}</span>
    </>
  );
}

function ErrorsChange({ row }: { row: OverviewRow }) {
  if (row.numberOfErrors === null) return <span className={MUTED}>–</span>;
  const change = row.errorsChange ?? 0;
  return (
    <>
      <span className={`font-semibold tabular-nums ${change > 0 ? "text-red-800 dark:text-red-300" : ""}`}>
        {`${change > 0 ? "+" : change < 0 ? "−" : "±"}${formatCount(Math.abs(change))}`}
      </span>
      <span className={`block ${MUTED}`}>{`${formatCount(row.numberOfErrors)} in all`}</span>
    </>
  );
}

/**
 * The overview's rows, in the order given (worst first). The name opens the webhook under its own
 * application. On a phone each row is a card.
 */
export function OverviewTable({
  rows,
  applications,
  now,
  local,
}: {
  rows: OverviewRow[];
  applications: ApplicationSummary[];
  now: number;
  local: boolean;
}) {
  const clock = { now, local };
  const appName = new Map(applications.map((app) => [app.id, app.name]));
  return (
    <div className="sm:overflow-x-auto sm:rounded-lg sm:border sm:border-zinc-200 sm:bg-white dark:sm:border-zinc-800 dark:sm:bg-zinc-900/60">
      <table className="overview-table w-full text-left text-sm max-sm:block">
        <caption className="sr-only">Watched webhooks, worst first</caption>
        <thead className="border-b border-zinc-200 text-xs text-zinc-600 max-sm:sr-only dark:border-zinc-800 dark:text-zinc-400">
          <tr>
            {[
              "Webhook",
              "State",
              "Success (24 h)",
              "Failing since",
              "Last success",
              "Last failure",
              "Errors (24 h)",
              "As of",
            ].map((header) => (
              <th key={header} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 max-sm:block max-sm:space-y-3 max-sm:divide-y-0 dark:divide-zinc-800">
          {rows.map((row) => (
            <tr
              key={row.webhookId}
              data-webhook-id={row.webhookId}
              className={
                isFailing(row)
                  ? "bg-red-50/60 dark:bg-red-950/30"
                  : "max-sm:bg-white dark:max-sm:bg-zinc-900/60"
              }
            >
              <th scope="row" className="min-w-56 font-normal max-sm:col-span-2" data-label="Webhook">
                <Link
                  href={webhookViewHref(row.webhookId, { app: row.appId })}
                  className="btn-link font-semibold"
                >
                  {row.name}
                </Link>
                <span className="block font-mono text-xs break-all text-zinc-700 dark:text-zinc-300">
                  {row.endpoint}
                </span>
                <span className={`block ${MUTED}`}>{appName.get(row.appId) ?? "Another application"}</span>
              </th>
              <td data-label="State">
                <State row={row} />
              </td>
              <td data-label="Success (24 h)">
                <SuccessRate row={row} />
              </td>
              <td data-label="Failing since">
                <FailingSince row={row} clock={clock} />
              </td>
              <td data-label="Last success">
                {row.lastSuccess ? (
                  <When iso={row.lastSuccess.at} clock={clock} relative />
                ) : (
                  <span className={MUTED}>None stored</span>
                )}
              </td>
              <td className="max-sm:col-span-2" data-label="Last failure">
                <LastFailure row={row} clock={clock} />
              </td>
              <td data-label="Errors (24 h)">
                <ErrorsChange row={row} />
              </td>
              <td className="whitespace-nowrap" data-label="As of">
                {row.asOf ? (
                  <Age iso={row.asOf} clock={clock} />
                ) : (
                  <span className={MUTED}>Not read yet</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
