import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { Suspense } from "react";
import { ErrorPanel } from "@/components/errors/error-panel";
import { RefreshButton } from "@/components/errors/refresh-button";
import { HealthPending, HealthRegion, type HealthFilter } from "@/components/health/delivery-health";
import { FindDelivery } from "@/components/history/find-delivery";
import { FilterRefusal, UnlessRefused } from "@/components/history/filter-refusal";
import { HistoryFilters } from "@/components/history/history-filters";
import { IssueFilterChip } from "@/components/issues/issue-filter-chip";
import { IgnoredParamsNotice } from "@/components/logs/ignored-params-notice";
import { LogTable, LogTableMessage } from "@/components/logs/log-table";
import { LogsToolbar, type ViewChoice } from "@/components/logs/logs-toolbar";
import { LogTableKeys } from "@/components/shortcuts/page-keys";
import { RememberWebhook } from "@/components/webhook/remember-webhook";
import { StoredWebhookNotice } from "@/components/webhook/stored-webhook-notice";
import { WebhookHeading } from "@/components/webhook/webhook-heading";
import { WebhookLive } from "@/components/webhook/webhook-live";
import { IssueLines } from "@/components/webhook/later-parts";
import { WatchPart } from "@/components/watch/watch-part";
import { isAppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { storedWebhook } from "@/lib/server/watch/stored-webhook";
import { storeAccess } from "@/lib/server/watch/store-access";
import { parseWebhookId, type WebhookId } from "@/lib/server/hub/path-params";
import { getSandboxDemo } from "@/lib/server/hub/sandbox-demo";
import { redirectToSignIn, requireSignedInPage } from "@/lib/server/session/redirect";
import { webhooksHref } from "@/lib/server/session/page-application";
import { getSession } from "@/lib/server/session/session";
import { LOG_STATUS_FILTERS, PAGE_SIZES, type LogViewState } from "@/lib/domain/search-params";
import { findInput } from "@/lib/domain/inputs/find-delivery";
import { bundleHref, isHistoryView, webhookViewHref } from "@/lib/domain/log-view";
import { demoOf } from "@/lib/domain/sandbox-demo";
import {
  HISTORY_FILTERS,
  ignoredParams,
  loadLogView,
  serializeLogView,
  unknownIssueParam,
} from "@/lib/domain/search-params";
import { isActive, type FailureIssue } from "@/lib/domain/watch/failure-issue";
import { issueView } from "@/lib/domain/watch/issue-view";
import { webhookTitle } from "@/lib/domain/webhook-name";
import { refreshPage } from "@/app/(console)/webhooks/[webhookId]/actions";
import { readWatch, readWebhook } from "@/app/(console)/webhooks/[webhookId]/reads";
import {
  CoveragePart,
  FailingPart,
  HealthPart,
  OpenLogPart,
  PagerPart,
  RowsPart,
  type PartCall,
} from "@/app/(console)/webhooks/[webhookId]/parts";

type Query = Record<string, string | string[] | undefined>;

/** The heading's links: small on a phone, where they share one line. */
const ACTION = "btn btn-secondary max-sm:px-2 max-sm:py-1 max-sm:text-xs";

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

/** Each webhook's tab is titled as its heading (the watch's name, else its own, else its endpoint), so that many open tabs can be told apart. */
export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const webhookId = parseWebhookId((await params).webhookId);
  const session = await getSession();
  const { app } = loadLogView(await searchParams);
  const application =
    session.status === "signed_in" ? session.data.applications.find(({ id }) => id === app) : undefined;
  if (!webhookId || !application || session.status !== "signed_in") return { title: "Webhook deliveries" };
  const [webhook, { watch }] = await Promise.all([
    readWebhook(application.apiKey, webhookId).catch(() => null),
    readWatch(webhookId),
  ]);
  const title = watch?.name || (webhook ? webhookTitle(webhook) : `Webhook ${webhookId}`);
  return { title: { absolute: title } };
}

/**
 * `/webhooks/{id}?app=&status=&page=&limit=&log=&health=…` (the view's parameters:
 * lib/domain/search-params.ts), rendered on the server from the URL, answer first: the heading
 * and one line of state, Delivery health, the open failure issues, then the log table. Links and
 * GET forms change the view; what is slow (health, the rows, a delivery found in the history)
 * streams in as it is ready. `?app=` names the application (an id derived from its key): a link
 * without one is sent on to the current application's, keeping the rest of its query; one the
 * session does not hold is "not found", without calling the hub. `?find=` (Find a delivery) opens
 * the delivery it names over the view it was asked from.
 */
export default async function WebhookPage({ params, searchParams }: Props) {
  const webhookId = parseWebhookId((await params).webhookId);
  if (!webhookId) notFound();
  const query = await searchParams;
  const search = searchOf(query);
  const data = await requireSignedInPage(`/webhooks/${webhookId}${search.size ? `?${search}` : ""}`);
  const asked = loadLogView(query);
  if (!asked.app) {
    search.delete("app");
    redirect(`/webhooks/${webhookId}?${new URLSearchParams([["app", data.current], ...search])}`);
  }
  const app = data.applications.find(({ id }) => id === asked.app);
  if (!app) notFound();

  const find = typeof query.find === "string" ? findInput.safeParse(query.find) : null;
  if (find?.success) {
    // A link to another webhook's delivery opens it there; here, over the view Find was used from.
    const owner = find.data.kind === "log" ? find.data.webhookId : webhookId.toLowerCase();
    redirect(
      owner === webhookId.toLowerCase()
        ? webhookViewHref(webhookId, { ...asked, log: find.data.id })
        : webhookViewHref(owner, { app: app.id, log: find.data.id }),
    );
  }

  const [read, demo, watched] = await Promise.all([
    readWebhook(app.apiKey, webhookId).then(
      (webhook) => ({ webhook, error: null }),
      (error: unknown) => ({ webhook: null, error }),
    ),
    getSandboxDemo(),
    readWatch(webhookId),
  ]);
  const appError = isAppError(read.error) ? read.error : null;
  // The key was rejected: sign in again or, in a session of several applications, mark that one
  // (the route re-checks the key and lands on the Applications page).
  if (appError?.code === "unauthorized") {
    if (data.applications.length < 2) redirectToSignIn("key_rejected");
    redirect(`/api/applications/rejected?app=${app.id}`);
  }
  if (appError?.code === "not_found") notFound();
  // The hub does not answer: a watched webhook is shown as the watch last read it.
  const outage = appError?.code.startsWith("upstream_") ? appError : null;
  const stored =
    outage && (await storeAccess([app])).allowed.length > 0 ? await storedWebhook(app.id, webhookId) : null;
  const webhook = read.webhook ?? stored?.webhook;
  if (!webhook) {
    if (!appError) console.error("[console] loading webhook page failed", read.error);
    return (
      <div className="mx-auto max-w-2xl space-y-4">
        <h1 className="text-xl font-semibold">Webhook {webhookId}</h1>
        <ErrorPanel
          status={appError ? appError.status : 500}
          message={appError ? appError.message : "The console failed while loading this webhook."}
          retryAfter={appError ? appError.retryAfter : null}
          actions={
            <>
              <RefreshButton />
              <Link href={webhooksHref(data, app.id)} className="btn-link">
                Back to webhooks
              </Link>
            </>
          }
        />
      </div>
    );
  }

  // An issue that is none of this webhook's is left out of the view, and said so.
  const unknownIssue = asked.issue !== null && !watched.issues.some((issue) => issue.id === asked.issue);
  const view: LogViewState = unknownIssue ? { ...asked, issue: null } : asked;
  const ignored = [...ignoredParams(search), ...(unknownIssue ? [unknownIssueParam(asked.issue!)] : [])];
  const call: PartCall = { appId: app.id, apiKey: app.apiKey, webhookId };
  const parts = { call, view, search: serializeLogView({ ...view, log: null }) };
  return (
    <div className="space-y-4 sm:space-y-5">
      {outage && stored ? <StoredWebhookNotice message={outage.message} asOf={stored.asOf} /> : null}
      <RememberWebhook
        app={app.id}
        id={webhook.id}
        endpoint={webhook.endpoint}
        eventType={webhook.eventType}
      />
      <WebhookHeading
        webhook={webhook}
        watchName={watched.watch?.name ?? null}
        failing={
          <Suspense key={view.health} fallback={null}>
            <FailingPart call={call} window={view.health} />
          </Suspense>
        }
        actions={
          <>
            {/* On a phone the rows are below health and the issues. */}
            <a href="#deliveries" className={`${ACTION} sm:hidden`}>
              Skip to deliveries
            </a>
            {watched.watch ? (
              <Link
                href={`/webhooks/${encodeURIComponent(webhookId)}/settings?app=${app.id}`}
                prefetch={false}
                className={ACTION}
              >
                Settings
              </Link>
            ) : null}
            <Link href={bundleHref(webhookId, { app: app.id })} prefetch={false} className={ACTION}>
              Support bundle
            </Link>
          </>
        }
      />
      {watched.watch ? null : (
        <section aria-label="Watch this webhook" className="card space-y-2 p-4 text-sm">
          <p>
            Not watched: watch it to keep its history in the console, group its failures into issues and be
            alerted when it fails.
          </p>
          <WatchPart webhookId={webhookId} />
        </section>
      )}
      <HealthRegion
        window={view.health}
        windowHref={(health) => webhookViewHref(webhookId, { ...view, health, log: null })}
      >
        <Suspense key={view.health} fallback={<HealthPending window={view.health} />}>
          <HealthPart call={call} window={view.health} filterHref={healthFilterHref(webhookId, view)} />
        </Suspense>
      </HealthRegion>
      <IssuesPart issues={watched.issues} failure={watched.failure} shownIssue={view.issue} />
      <WebhookLive
        webhookId={webhookId}
        webhookActive={webhook.active}
        demoChannels={demo ? demoOf(demo, app.id).channels : []}
        newestHref={webhookViewHref(webhookId, { app: app.id, health: view.health })}
        showingNewest={view.page === 1 && view.status === null && !isHistoryView(view)}
      >
        <LogsSection
          parts={parts}
          ignored={ignored}
          issues={watched.issues}
          findError={find && !find.success ? (find.error.issues[0]?.message ?? null) : null}
        />
      </WebhookLive>
    </div>
  );
}

/** The table of a health bar or a failure code: the failures (or all deliveries) of its time and code. */
function healthFilterHref(webhookId: WebhookId, view: LogViewState) {
  return ({ code, since, until }: HealthFilter) =>
    webhookViewHref(webhookId, {
      app: view.app,
      health: view.health,
      status: code === undefined ? null : "Failed",
      code: code === undefined ? null : String(code),
      since: since ?? null,
      until: until ?? null,
    });
}

/** The open (and acknowledged) failure issues, one line each; nothing for a webhook nobody watches or that never failed. */
function IssuesPart({
  issues,
  failure,
  shownIssue,
}: {
  issues: FailureIssue[];
  failure: string | null;
  shownIssue: string | null;
}) {
  if (failure) {
    return (
      <p className="text-sm text-amber-900 dark:text-amber-200">Failure issues are unavailable: {failure}</p>
    );
  }
  const open = issues.filter(isActive);
  if (open.length === 0) return null;
  return (
    <section aria-labelledby="issues-heading" className="card space-y-1 px-4 py-3">
      <h2 id="issues-heading" className="text-base font-semibold">
        Failure issues{" "}
        <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">({open.length} open)</span>
      </h2>
      <IssueLines issues={open.map(issueView)} shownIssue={shownIssue} />
    </section>
  );
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
            <Suspense key={key} fallback={<LogTableMessage busy>Loading deliveries…</LogTableMessage>}>
              <RowsPart call={call} search={search} view={view} viewHref={href} />
            </Suspense>
          </LogTable>
          <Suspense key={key} fallback={null}>
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
