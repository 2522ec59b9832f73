import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { ErrorPanel } from "@/components/errors/error-panel";
import { RefreshButton } from "@/components/errors/refresh-button";
import { WebhookView } from "@/components/webhook/webhook-view";
import { FindDelivery } from "@/components/history/find-delivery";
import { StoredWebhookNotice } from "@/components/webhook/stored-webhook-notice";
import { getQueryClient } from "@/lib/browser/query-client";
import { logsQueryOptions, webhookQueryOptions } from "@/lib/browser/queries";
import { isAppError } from "@/lib/server/app-error";
import { getWebhook, listWebhookLogs } from "@/lib/server/hub/client";
import { storedWebhook } from "@/lib/server/watch/stored-webhook";
import { storeAccess } from "@/lib/server/watch/store-access";
import { parseWebhookId, type WebhookId } from "@/lib/server/hub/path-params";
import { getSandboxDemo } from "@/lib/server/hub/sandbox-demo";
import { redirectToSignIn, requireSignedInPage } from "@/lib/server/session/redirect";
import { webhooksHref } from "@/lib/server/session/page-application";
import { getSession } from "@/lib/server/session/session";
import { findInput } from "@/lib/domain/inputs/find-delivery";
import { bundleHref, isHistoryView, toApiQuery, webhookViewHref } from "@/lib/domain/log-view";
import { demoOf } from "@/lib/domain/sandbox-demo";
import { loadLogView } from "@/lib/domain/search-params";
import { webhookTitle } from "@/lib/domain/webhook-name";

type Query = Record<string, string | string[] | undefined>;

interface Props {
  params: Promise<{ webhookId: string }>;
  searchParams: Promise<Query>;
}

/** The webhook, read once per request for both the tab's title and the page. */
const readWebhook = cache((apiKey: string, webhookId: WebhookId) => getWebhook({ apiKey }, webhookId));

/** The page's query as it came (a parameter the view ignores is kept: the page says why it ignored it). */
function searchOf(query: Query): URLSearchParams {
  return new URLSearchParams(
    Object.entries(query).flatMap(([name, value]) => [value ?? []].flat().map((one) => [name, one])),
  );
}

/** Each webhook's tab is titled by its name, else its endpoint, so that many open tabs can be told apart. */
export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const webhookId = parseWebhookId((await params).webhookId);
  const session = await getSession();
  const { app } = loadLogView(await searchParams);
  const application =
    session.status === "signed_in" ? session.data.applications.find(({ id }) => id === app) : undefined;
  if (!webhookId || !application) return { title: "Webhook deliveries" };
  const webhook = await readWebhook(application.apiKey, webhookId).catch(() => null);
  return { title: { absolute: webhook ? webhookTitle(webhook) : `Webhook ${webhookId}` } };
}

/**
 * `/webhooks/{id}?app=&status=&page=&limit=&log=…` (the view's parameters: lib/domain/search-params.ts).
 * `?app=` names the application (an id derived from its key): a link without one is sent on to
 * the current application's, keeping the rest of its query; one the session does not hold is "not
 * found", without calling the hub. `?find=` (Find a delivery) opens the delivery it names.
 *
 * The server prefetches the webhook and the page of logs the URL names, with the session's key,
 * under the same `queryOptions` the browser's queries use, and hands them over with
 * HydrationBoundary: the HTML holds the header and the rows, and the browser makes no API request
 * before showing them.
 */
export default async function WebhookPage({ params, searchParams }: Props) {
  const webhookId = parseWebhookId((await params).webhookId);
  if (!webhookId) notFound();
  const query = await searchParams;
  const view = loadLogView(query);
  const search = searchOf(query);
  const data = await requireSignedInPage(`/webhooks/${webhookId}${search.size ? `?${search}` : ""}`);
  if (!view.app) {
    search.delete("app");
    redirect(`/webhooks/${webhookId}?${new URLSearchParams([["app", data.current], ...search])}`);
  }
  const app = data.applications.find(({ id }) => id === view.app);
  if (!app) notFound();

  const find = typeof query.find === "string" ? findInput.safeParse(query.find) : null;
  if (find?.success) {
    // A link to another webhook's delivery opens it there.
    const owner = find.data.kind === "log" ? find.data.webhookId : webhookId.toLowerCase();
    redirect(webhookViewHref(owner, { app: app.id, log: find.data.id }));
  }

  const queryClient = getQueryClient();
  const webhookOptions = {
    ...webhookQueryOptions(webhookId),
    queryFn: () => readWebhook(app.apiKey, webhookId),
    retry: false,
  };
  const logsOptions = {
    ...logsQueryOptions(webhookId, view),
    queryFn: () => listWebhookLogs({ apiKey: app.apiKey }, webhookId, toApiQuery(view)),
    retry: false,
  };
  const [demo] = await Promise.all([
    getSandboxDemo(),
    queryClient.prefetchQuery(webhookOptions),
    // A view with history filters is answered by a scan from the browser, not by a page of the API.
    isHistoryView(view) ? null : queryClient.prefetchQuery(logsOptions),
  ]);
  const webhookError = queryClient.getQueryState(webhookOptions.queryKey)?.error;
  const logsError = queryClient.getQueryState(logsOptions.queryKey)?.error;
  const failures = [webhookError, logsError].filter(isAppError);

  // The key was rejected: sign in again or, in a session of several applications, mark that one
  // (the route re-checks the key and lands on the Applications page).
  if (failures.some(({ code }) => code === "unauthorized")) {
    if (data.applications.length < 2) redirectToSignIn("key_rejected");
    redirect(`/api/applications/rejected?app=${app.id}`);
  }
  if (failures.some(({ code }) => code === "not_found")) notFound();
  // The hub does not answer: a watched webhook is shown as the watch last read it.
  const outage = isAppError(webhookError) && webhookError.code.startsWith("upstream_") ? webhookError : null;
  const stored =
    outage && (await storeAccess([app])).allowed.length > 0 ? await storedWebhook(app.id, webhookId) : null;
  if (stored) queryClient.setQueryData(webhookOptions.queryKey, stored.webhook);
  // Any other failure of the logs alone is left to the browser: its query retries and shows the
  // error with "Try again".
  if (webhookError && !stored) {
    const appError = isAppError(webhookError) ? webhookError : null;
    if (!appError) console.error("[console] loading webhook page failed", webhookError);
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

  const findError = find && !find.success ? (find.error.issues[0]?.message ?? null) : null;
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <p className="mb-3 text-right text-sm">
        <Link href={bundleHref(webhookId, { app: app.id })} className="btn-link">
          Support bundle
        </Link>
      </p>
      {outage && stored ? <StoredWebhookNotice message={outage.message} asOf={stored.asOf} /> : null}
      <WebhookView
        webhookId={webhookId}
        demoChannels={demo ? demoOf(demo, app.id).channels : []}
        findBox={<FindDelivery webhookId={webhookId} app={app.id} error={findError} />}
      />
    </HydrationBoundary>
  );
}
