"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { isApiError } from "@/lib/browser/api";
import { useDebouncedValue } from "@/lib/browser/use-debounced-value";
import { formatAge } from "@/lib/domain/format-age";
import { Notice } from "@/components/ui/notice";
import { HandOverForm } from "@/components/overview/hand-over-form";
import { FailureIssuesSection } from "@/components/overview/failure-issues-section";
import { OverviewFilters } from "@/components/overview/overview-filters";
import { OVERVIEW_REFRESH_MS, overviewQueryOptions } from "@/components/overview/overview-query";
import { Pager } from "@/components/ui/pager";
import { OverviewTable } from "@/components/overview/overview-table";
import { overviewHref, overviewSearchParams } from "@/components/overview/search-params";
import { useClock } from "@/components/overview/use-clock";
import { WatcherHealth } from "@/components/overview/watcher-health";
import { OverviewKeys } from "@/components/shortcuts/page-keys";

/** How long the search box waits for typing to stop before it asks the server. */
const SEARCH_SETTLE_MS = 300;

/**
 * The overview's live part: the page of rows the server rendered for the URL's view, read again
 * every OVERVIEW_REFRESH_MS and whenever the view changes (the last answer stays on screen while a
 * read fails, with why, or while the next view loads). Each page of rows is an entry of the
 * browser's history.
 */
export function OverviewView() {
  const [view] = useQueryStates(overviewSearchParams);
  const q = useDebouncedValue(view.q, SEARCH_SETTLE_MS);
  const { data, error, dataUpdatedAt, isFetching, isPlaceholderData, refetch } = useQuery(
    overviewQueryOptions({ ...view, q }),
  );
  const now = useClock(5000);
  const clock = now || (data ? Date.parse(data.at) : 0);

  const storeDown = isApiError(error) && error.code === "store_unavailable";
  const problem = error ? (
    <Notice
      tone={storeDown ? "warning" : "error"}
      title={storeDown ? "The watch's store is unavailable" : "The overview could not be read"}
      role="alert"
    >
      <p>
        {error.message}
        {data ? " The rows below are the last ones read." : ""}
      </p>
      {storeDown ? (
        <p>Webhook pages still answer from the Messaging Hub directly. The overview tries again by itself.</p>
      ) : null}
    </Notice>
  ) : null;

  if (!data) return problem ?? <p role="status">Reading the overview…</p>;

  const applications = data.applications;
  const rows = data.rows;
  const matched = data.matching.length;
  const rejected = applications.filter((known) => data.health.keysRejected.includes(known.id));

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-zinc-700 dark:text-zinc-300">
        <p>
          {now ? (
            <>
              Updated{" "}
              <time dateTime={new Date(dataUpdatedAt).toISOString()}>
                {formatAge(new Date(dataUpdatedAt).toISOString(), now)} ago
              </time>
            </>
          ) : (
            "Updated just now"
          )}
          ; refreshes every {OVERVIEW_REFRESH_MS / 1000} s.
        </p>
        <button type="button" className="btn btn-small" onClick={() => void refetch()} disabled={isFetching}>
          {isFetching ? "Refreshing…" : "Refresh now"}
        </button>
        {/* Phones seldom have a keyboard. */}
        <div className="ml-auto max-sm:hidden">
          <OverviewKeys />
        </div>
      </div>
      {problem}
      <WatcherHealth health={data.health} applications={applications} />
      {rejected.map((known) => (
        <HandOverForm key={known.id} app={known} />
      ))}
      {data.watched === 0 ? (
        <Notice title="Nothing is watched yet">
          <p>
            Watch webhooks on the{" "}
            <Link href="/watch" className="btn-link">
              Watch
            </Link>{" "}
            page (many at once), or with &ldquo;Watch&rdquo; on a webhook&apos;s page. The watcher then reads
            them for you, and this overview shows the worst first.
          </p>
        </Notice>
      ) : (
        <>
          <OverviewFilters applications={applications} />
          <p className="text-sm text-zinc-700 dark:text-zinc-300" role="status">
            {matched === data.watched
              ? `${matched} watched ${matched === 1 ? "webhook" : "webhooks"}, worst first.`
              : `${matched} of ${data.watched} watched webhooks match.`}
          </p>
          {rows.length ? (
            <div aria-busy={isPlaceholderData} className="space-y-3">
              <OverviewTable rows={rows} applications={applications} now={clock} local={now !== 0} />
              {data.page.count > 1 ? (
                <Pager
                  label="Overview pages"
                  page={data.page.number}
                  pageSize={data.page.size}
                  total={matched}
                  noun="webhooks"
                  hrefFor={(page) => overviewHref("/overview", { ...view, page })}
                />
              ) : null}
            </div>
          ) : null}
          <FailureIssuesSection webhookIds={data.matching} />
        </>
      )}
    </div>
  );
}
