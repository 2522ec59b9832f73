import type { HealthWindow } from "@/lib/domain/history/health";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { NO_HISTORY_FILTERS, type LogViewState } from "@/lib/domain/search-params";
import type { WebhookId } from "@/lib/server/hub/path-params";
import { ErrorPanel } from "@/components/errors/error-panel";
import { RefreshButton } from "@/components/errors/refresh-button";
import { DeliveryHealth, type HealthFilter } from "@/components/health/delivery-health";
import { HistoryCoverage } from "@/components/history/history-coverage";
import { LogDialog } from "@/components/logs/log-dialog";
import { LogsEmptyState } from "@/components/logs/logs-empty-state";
import { PrefetchView } from "@/components/logs/prefetch-view";
import { LogRows, LogTableMessage } from "@/components/logs/log-table";
import { Pager } from "@/components/ui/pager";
import { FailingSince } from "@/components/webhook/webhook-heading";
import { readHealth, readOpenLog, readTable } from "@/app/(console)/webhooks/[webhookId]/reads";
import { CopyReading } from "@/components/webhook/later-parts";

/**
 * The parts of a webhook's page that wait for an answer, each rendered inside its own Suspense
 * boundary: the rest of the page is sent first, and each part follows when its answer is ready.
 * Parts that show one answer (the table's coverage, rows and pager) share one read (reads.ts).
 */

/** Who asks, and about which webhook. */
export interface PartCall {
  appId: string;
  apiKey: string;
  webhookId: WebhookId;
}

/** "Failing since …" in the heading's state line, from Delivery health's answer. */
export async function FailingPart({ call, window }: { call: PartCall; window: HealthWindow }) {
  const read = await readHealth(call.appId, call.apiKey, call.webhookId, window);
  if (read.kind !== "answer") return null;
  const { summary, source } = read.answer;
  return <FailingSince streak={summary.failingStreak} asOf={Date.parse(source.asOf)} />;
}

/** Delivery health's answer, the reading of the copy it waits for, or why it could not be read. */
export async function HealthPart({
  call,
  window,
  filterHref,
}: {
  call: PartCall;
  window: HealthWindow;
  filterHref: (filter: HealthFilter) => string;
}) {
  const read = await readHealth(call.appId, call.apiKey, call.webhookId, window);
  if (read.kind === "reading") return <CopyReading path={read.path} what="Delivery health" />;
  if (read.kind === "failed") {
    return (
      <ErrorPanel
        status={read.failure.status}
        message={`Delivery health could not be read: ${read.failure.message}`}
        retryAfter={read.failure.retryAfter}
        actions={<RefreshButton />}
      />
    );
  }
  const { summary, read: count, source, partial } = read.answer;
  return (
    <DeliveryHealth
      summary={summary}
      read={count}
      source={source}
      partial={partial}
      filterHref={filterHref}
      retry={<RefreshButton />}
    />
  );
}

/** Above a filtered table: what the copy covered, or its reading (progress and Cancel). */
export async function CoveragePart({
  call,
  search,
  scanFurtherHref,
}: {
  call: PartCall;
  search: string;
  scanFurtherHref: (cap: number) => string | null;
}) {
  const read = await readTable(call.appId, call.apiKey, call.webhookId, search);
  if (read.kind === "reading") return <CopyReading path={read.path} what="The filtered history" />;
  if (read.kind === "failed" || !read.answer.result) return null;
  const { result } = read.answer;
  return (
    <HistoryCoverage
      result={result}
      scanFurtherHref={scanFurtherHref(result.cap * 2)}
      retry={<RefreshButton />}
    />
  );
}

/** The table's body: the view's rows, why there are none, or why they could not be read. */
export async function RowsPart({
  call,
  search,
  view,
  viewHref,
}: {
  call: PartCall;
  search: string;
  view: LogViewState;
  /** This view with some parameters changed. */
  viewHref: (state: Partial<LogViewState>) => string;
}) {
  const read = await readTable(call.appId, call.apiKey, call.webhookId, search);
  if (read.kind === "reading") {
    return <LogTableMessage busy>Reading older deliveries into the console&apos;s copy…</LogTableMessage>;
  }
  if (read.kind === "failed") {
    return (
      <LogTableMessage>
        <div className="mx-auto max-w-xl text-left">
          <ErrorPanel
            role="alert"
            status={read.failure.status}
            message={read.failure.message}
            retryAfter={read.failure.retryAfter}
            actions={<RefreshButton />}
          />
        </div>
      </LogTableMessage>
    );
  }
  const { rows, total } = read.answer;
  const totalPages = Math.ceil(total / view.limit);
  const links = {
    lastPage: viewHref({ page: Math.max(1, totalPages) }),
    noFilters: viewHref({ ...NO_HISTORY_FILTERS, page: 1 }),
    allStatuses: viewHref({ status: null, page: 1 }),
  };
  return (
    <LogRows
      rows={rows}
      openHref={(logId) => viewHref({ log: logId })}
      empty={<LogsEmptyState view={view} totalPages={totalPages} links={links} />}
    />
  );
}

/** The pager under the table, once the view's total is known; the next page is prefetched. */
export async function PagerPart({
  call,
  search,
  view,
  pageHref,
}: {
  call: PartCall;
  search: string;
  view: LogViewState;
  pageHref: (page: number) => string;
}) {
  const read = await readTable(call.appId, call.apiKey, call.webhookId, search);
  if (read.kind !== "answer") return null;
  const { total } = read.answer;
  return (
    <>
      <Pager
        label="Log pages"
        page={view.page}
        pageSize={view.limit}
        total={total}
        noun="deliveries"
        hrefFor={pageHref}
      />
      {view.page * view.limit < total ? <PrefetchView href={pageHref(view.page + 1)} /> : null}
    </>
  );
}

/** The open delivery (`?log=`): from the view's rows, else found in the history. */
export async function OpenLogPart({
  call,
  search,
  logId,
  closeHref,
}: {
  call: PartCall;
  search: string;
  logId: string;
  closeHref: string;
}) {
  const read = await readTable(call.appId, call.apiKey, call.webhookId, search);
  const shown: WebhookLog[] = read.kind === "answer" ? read.answer.rows : [];
  const { log, missing } = await readOpenLog(call.appId, call.apiKey, call.webhookId, logId, shown);
  return <LogDialog key={logId} logId={logId} log={log} missing={missing} closeHref={closeHref} />;
}
