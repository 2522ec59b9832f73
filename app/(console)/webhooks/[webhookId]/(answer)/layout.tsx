import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { Suspense, type ReactNode } from "react";
import { ErrorPanel } from "@/components/errors/error-panel";
import { RefreshButton } from "@/components/errors/refresh-button";
import { HealthPending, HealthRegion, type HealthFilter } from "@/components/health/delivery-health";
import { AnswerView } from "@/components/webhook/answer-view";
import { RememberWebhook } from "@/components/webhook/remember-webhook";
import { StoredWebhookNotice } from "@/components/webhook/stored-webhook-notice";
import { WebhookHeading } from "@/components/webhook/webhook-heading";
import { WebhookLive } from "@/components/webhook/webhook-live";
import { IssueLines } from "@/components/webhook/later-parts";
import { WatchPart } from "@/components/watch/watch-part";
import { isAppError } from "@/lib/server/app-error";
import { storedWebhook } from "@/lib/server/watch/stored-webhook";
import { storeAccess } from "@/lib/server/watch/store-access";
import { parseWebhookId, type WebhookId } from "@/lib/server/hub/path-params";
import { getSandboxDemo } from "@/lib/server/hub/sandbox-demo";
import { redirectToSignIn } from "@/lib/server/session/redirect";
import { pageAddress, webhooksHref } from "@/lib/server/session/page-application";
import { getSession } from "@/lib/server/session/session";
import type { HealthWindow } from "@/lib/domain/history/health";
import { bundleHref, webhookViewHref } from "@/lib/domain/log-view";
import { demoOf } from "@/lib/domain/sandbox-demo";
import { loadLogView } from "@/lib/domain/search-params";
import { isActive, type FailureIssue } from "@/lib/domain/watch/failure-issue";
import { issueView } from "@/lib/domain/watch/issue-view";
import { webhookTitle } from "@/lib/domain/webhook-name";
import { pageView } from "@/app/(console)/webhooks/[webhookId]/page-view";
import { readWatch, readWebhook } from "@/app/(console)/webhooks/[webhookId]/reads";
import { FailingPart, HealthPart, type PartCall } from "@/app/(console)/webhooks/[webhookId]/parts";

/** The heading's links: small on a phone, where they share one line. */
const ACTION = "btn btn-secondary max-sm:px-2 max-sm:py-1 max-sm:text-xs";

interface Props {
  params: Promise<{ webhookId: string }>;
  children: ReactNode;
}

/**
 * The query of the address the layout answers (proxy.ts passes it): a layout is given no search
 * parameters. Next's own `_rsc` (on a refresh's request) is none of the view's.
 */
async function addressSearch(): Promise<string> {
  const search = new URLSearchParams((await pageAddress())?.searchParams);
  search.delete("_rsc");
  return search.toString();
}

/** Each webhook's tab is titled as its heading (the watch's name, else its own, else its endpoint), so that many open tabs can be told apart. */
export async function generateMetadata({ params }: Pick<Props, "params">): Promise<Metadata> {
  const webhookId = parseWebhookId((await params).webhookId);
  const session = await getSession();
  const { app } = loadLogView(new URLSearchParams(await addressSearch()));
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
 * The answer of `/webhooks/{id}?app=&health=…` (the view's parameters:
 * lib/domain/search-params.ts), rendered on the server, answer first: the heading and one line of
 * state, Delivery health, the open failure issues, then the log table (the page, `children`).
 * A layout is not rendered again when only the search parameters change, so choosing the table's
 * view (status, page, filters, an open delivery) renders the table alone; a view of other health
 * or another issue refreshes this part too (`AnswerView`), and so do Refresh and Auto-refresh
 * (`router.refresh()`). What is slow (health) streams in as it is ready.
 */
export default async function WebhookAnswerLayout({ params, children }: Props) {
  const { webhookId, data, app, asked, query } = await pageView(
    (await params).webhookId,
    await addressSearch(),
  );
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

  // An issue that is none of this webhook's is not highlighted (the table's page says why).
  const shownIssue = watched.issues.some((issue) => issue.id === asked.issue) ? asked.issue : null;
  const health = asked.health;
  const call: PartCall = { appId: app.id, apiKey: app.apiKey, webhookId };
  return (
    <div className="space-y-4 sm:space-y-5">
      <AnswerView health={query.get("health")} issue={query.get("issue")} />
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
          <Suspense key={health} fallback={null}>
            <FailingPart call={call} window={health} />
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
      <HealthRegion window={health}>
        <Suspense key={health} fallback={<HealthPending window={health} />}>
          <HealthPart call={call} window={health} filterHref={healthFilterHref(webhookId, app.id, health)} />
        </Suspense>
      </HealthRegion>
      <IssuesPart issues={watched.issues} failure={watched.failure} shownIssue={shownIssue} />
      <WebhookLive
        webhookId={webhookId}
        webhookActive={webhook.active}
        demoChannels={demo ? demoOf(demo, app.id).channels : []}
        newestHref={webhookViewHref(webhookId, { app: app.id, health })}
      >
        {children}
      </WebhookLive>
    </div>
  );
}

/** The table of a health bar or a failure code: the failures (or all deliveries) of its time and code. */
function healthFilterHref(webhookId: WebhookId, app: string, health: HealthWindow) {
  return ({ code, since, until }: HealthFilter) =>
    webhookViewHref(webhookId, {
      app,
      health,
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
