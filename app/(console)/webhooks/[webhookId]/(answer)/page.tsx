import { Suspense } from "react";
import { FindDelivery } from "@/components/history/find-delivery";
import { FilterRefusal, UnlessRefused } from "@/components/history/filter-refusal";
import { HistoryFilters } from "@/components/history/history-filters";
import { IssueFilterChip } from "@/components/issues/issue-filter-chip";
import { IgnoredParamsNotice } from "@/components/logs/ignored-params-notice";
import { LogTable, LogTableMessage } from "@/components/logs/log-table";
import { LogsToolbar, type ViewChoice } from "@/components/logs/logs-toolbar";
import { LogTableKeys } from "@/components/shortcuts/page-keys";
import { serverConfig } from "@/lib/server/config";
import { isHistoryView, webhookViewHref } from "@/lib/domain/log-view";
import {
  HISTORY_FILTERS,
  LOG_STATUS_FILTERS,
  PAGE_SIZES,
  ignoredParams,
  serializeLogView,
  unknownIssueParam,
  type LogViewState,
} from "@/lib/domain/search-params";
import type { FailureIssue } from "@/lib/domain/watch/failure-issue";
import { refreshPage } from "@/app/(console)/webhooks/[webhookId]/actions";
import { pageView } from "@/app/(console)/webhooks/[webhookId]/page-view";
import { readTable, readWatch } from "@/app/(console)/webhooks/[webhookId]/reads";
import {
  CoveragePart,
  OpenLogPart,
  PagerPart,
  RowsPart,
  type PartCall,
} from "@/app/(console)/webhooks/[webhookId]/parts";

type Query = Record<string, string | string[] | undefined>;

interface Props {
  params: Promise<{ webhookId: string }>;
  searchParams: Promise<Query>;
}

/** The page's query as it came (a parameter the view ignores is kept: the page says why it ignored it). */
function searchOf(query: Query): URLSearchParams {
  return new URLSearchParams(
    Object.entries(query).flatMap(([name, value]) => [value ?? []].flat().map((one) => [name, one])),
  );
}

/**
 * The log table of `/webhooks/{id}?app=&status=&page=&limit=&log=…` and what chooses its view,
 * rendered on the server from the URL inside the answer's layout (the heading, state, health and
 * issues: layout.tsx). Links and GET forms change the view, and only this page is rendered again
 * for it; the rows stream in as they are ready, read while the rest renders.
 */
export default async function WebhookTablePage({ params, searchParams }: Props) {
  const search = searchOf(await searchParams);
  const { webhookId, app, asked, findError } = await pageView((await params).webhookId, search.toString());
  // Only a view of one failure issue needs the issues: it is left out when it is none of this webhook's, and said so.
  const issues = asked.issue === null ? [] : (await readWatch(webhookId)).issues;
  const unknownIssue = asked.issue !== null && !issues.some((issue) => issue.id === asked.issue);
  const view: LogViewState = unknownIssue ? { ...asked, issue: null } : asked;
  const ignored = [...ignoredParams(search), ...(unknownIssue ? [unknownIssueParam(asked.issue!)] : [])];
  const call: PartCall = { appId: app.id, apiKey: app.apiKey, webhookId };
  const parts = { call, view, search: serializeLogView({ ...view, log: null }) };
  // The table's read starts now, while the page renders; its parts wait for the same read.
  void readTable(call.appId, call.apiKey, webhookId, parts.search);
  return <LogsSection parts={parts} ignored={ignored} issues={issues} findError={findError} />;
}

/** The log table and what chooses its view: status, page size, history filters, Find. */
function LogsSection({
  parts,
  ignored,
  issues,
  findError,
}: {
  parts: { call: PartCall; view: LogViewState; search: string };
  ignored: ReturnType<typeof ignoredParams>;
  issues: FailureIssue[];
  /** Why what Find was given is no ID. */
  findError: string | null;
}) {
  const { call, view, search } = parts;
  const { webhookId } = call;
  const href = (state: Partial<LogViewState>) => webhookViewHref(webhookId, { ...view, log: null, ...state });
  const choice = (value: string, label: string, state: Partial<LogViewState>): ViewChoice => ({
    value,
    label,
    href: href({ ...state, page: 1 }),
  });
  const filters = HISTORY_FILTERS.map((name) => view[name] ?? "").join("|");
  const issue = view.issue ? issues.find((one) => one.id === view.issue) : undefined;
  // The view's own parameters travel with Find, so closing what it found comes back here.
  const findView = [...new URLSearchParams(serializeLogView({ ...view, log: null }))] as Array<
    [string, string]
  >;
  // Every part of the table shows the same answer: a new view is a new one (`key`).
  const key = search;
  const { capMax } = serverConfig().history;
  return (
    <section aria-labelledby="logs-heading" className="min-w-0 space-y-3">
      {ignored.length > 0 ? (
        // The view is the link without them.
        <IgnoredParamsNotice ignored={ignored} withoutHref={href({})} />
      ) : null}
      <LogsToolbar
        heading={
          <h2 id="logs-heading" className="text-base font-semibold">
            Delivery logs
          </h2>
        }
        keys={<LogTableKeys />}
        status={view.status ?? ""}
        statuses={[
          choice("", "All", { status: null }),
          ...LOG_STATUS_FILTERS.map((status) => choice(status, status, { status })),
        ]}
        limit={String(view.limit)}
        limits={PAGE_SIZES.map((limit) => choice(String(limit), String(limit), { limit }))}
        refreshPage={refreshPage}
      />
      {issue ? <IssueFilterChip issue={issue} clearHref={href({ issue: null, page: 1 })} /> : null}
      <FilterRefusal filters={filters}>
        <div className="grid items-start gap-3 lg:grid-cols-[minmax(0,1fr)_minmax(0,30rem)]">
          <HistoryFilters webhookId={webhookId} view={view} filters={filters} open={isHistoryView(view)} />
          <FindDelivery webhookId={webhookId} view={findView} error={findError} />
        </div>
        <UnlessRefused>
          {isHistoryView(view) ? (
            <Suspense key={key} fallback={null}>
              <CoveragePart
                call={call}
                search={search}
                scanFurtherHref={(cap) => (cap <= capMax ? href({ cap, page: 1 }) : null)}
              />
            </Suspense>
          ) : null}
          <LogTable>
            {/* Not keyed by the view: while a new view's rows come, the earlier rows stay ("Updating…"). */}
            <Suspense fallback={<LogTableMessage busy>Loading deliveries…</LogTableMessage>}>
              <RowsPart call={call} search={search} view={view} viewHref={href} />
            </Suspense>
          </LogTable>
          <Suspense fallback={null}>
            <PagerPart call={call} search={search} view={view} pageHref={(page) => href({ page })} />
          </Suspense>
        </UnlessRefused>
      </FilterRefusal>
      {view.log ? (
        <Suspense key={view.log} fallback={null}>
          <OpenLogPart call={call} search={search} logId={view.log} closeHref={href({ log: null })} />
        </Suspense>
      ) : null}
    </section>
  );
}
