import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { HydrationBoundary, QueryClient, dehydrate } from "@tanstack/react-query";
import { ErrorPanel } from "@/components/errors/error-panel";
import { RefreshButton } from "@/components/errors/refresh-button";
import { WebhookView } from "@/components/webhook/webhook-view";
import { isAppError } from "@/lib/server/app-error";
import { getWebhook, listWebhookLogs } from "@/lib/server/hub/client";
import { parseWebhookId } from "@/lib/server/hub/path-params";
import { webhookKeys } from "@/lib/domain/query-keys";
import { getSandboxDemo } from "@/lib/server/hub/sandbox-demo";
import { isHistoryView, parseLogSearchParams, toApiQuery, webhookViewHref } from "@/lib/domain/log-view";
import { parseFindInput } from "@/lib/domain/history/find-input";
import { FindDelivery } from "@/components/history/find-delivery";
import { redirectToSignIn, requireSignedInPage } from "@/lib/server/session/redirect";
import { webhooksHref } from "@/lib/server/session/page-application";
import type { Application, SessionData } from "@/lib/server/session/session";
import { demoOf } from "@/lib/domain/sandbox-demo";

export const metadata: Metadata = { title: "Webhook deliveries" };

interface Props {
  params: Promise<{ webhookId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/**
 * A hub failure that the page cannot show data for: not found → 404; key rejected → sign in
 * again, or, in a session of several applications, mark that one (the route re-checks the key and
 * lands on the Applications page); else returned.
 */
function settle(result: PromiseSettledResult<unknown>, data: SessionData, app: Application): unknown {
  if (result.status === "fulfilled") return null;
  const error = result.reason;
  if (isAppError(error)) {
    if (error.code === "unauthorized") {
      if (data.applications.length < 2) redirectToSignIn("key_rejected");
      redirect(`/api/applications/rejected?app=${app.id}`);
    }
    if (error.code === "not_found") notFound();
  }
  return error;
}

/**
 * `/webhooks/{id}?app=&status=&page=&limit=&log=`. `?app=` names the application (an id derived
 * from its key): a link without one is sent on to the current application's; one the session does
 * not hold is "not found", without calling the hub. The server fetches the webhook and the page of logs
 * the URL names (with the session's key, straight from the hub client) into a per-request
 * QueryClient and hands it to the browser with HydrationBoundary: the HTML holds the header and
 * the rows, and the browser makes no API request before showing them.
 */
export default async function WebhookPage({ params, searchParams }: Props) {
  const webhookId = parseWebhookId((await params).webhookId);
  const query = await searchParams;
  const view = parseLogSearchParams(query);
  if (!webhookId) notFound();
  const data = await requireSignedInPage(webhookViewHref(webhookId, view));
  if (!view.app) redirect(webhookViewHref(webhookId, { ...view, app: data.current }));
  const app = data.applications.find(({ id }) => id === view.app);
  if (!app) notFound();
  const findError = typeof query.find === "string" ? openFound(webhookId, view.app, query.find) : null;

  const call = { apiKey: app.apiKey };
  // getSandboxDemo never rejects (any failure is null), so it is awaited beside the settled pair.
  const [[webhookResult, logsResult], demo] = await Promise.all([
    Promise.allSettled([
      getWebhook(call, webhookId),
      // A view with history filters is answered by a scan from the browser, not by a page of the API.
      isHistoryView(view) ? Promise.resolve(null) : listWebhookLogs(call, webhookId, toApiQuery(view)),
    ]),
    getSandboxDemo(),
  ]);
  // The browser's queries start from what the server fetched, under the same keys.
  const queryClient = new QueryClient();
  if (webhookResult.status === "fulfilled")
    queryClient.setQueryData(webhookKeys.webhook(webhookId), webhookResult.value);
  if (logsResult.status === "fulfilled" && logsResult.value)
    queryClient.setQueryData(webhookKeys.logPage(webhookId, view), logsResult.value);

  const webhookError = settle(webhookResult, data, app);
  // A logs failure alone is left to the browser: its query retries and shows the error with "Try again".
  settle(logsResult, data, app);

  if (webhookError) {
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

  const demoChannels = demo ? demoOf(demo, app.id).channels : [];
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <p className="mb-3 text-right text-sm">
        <Link href={`/webhooks/${webhookId}/bundle?app=${app.id}`} className="btn-link">
          Support bundle
        </Link>
      </p>
      <WebhookView
        webhookId={webhookId}
        demoChannels={demoChannels}
        findBox={<FindDelivery webhookId={webhookId} app={app.id} error={findError} />}
      />
    </HydrationBoundary>
  );
}

/**
 * "Find a delivery" (`?find=`): a log ID, a message ID or a console link opens that delivery
 * (`?log=`; a link to another webhook's delivery opens it there). Returns what is wrong with
 * text that is none of these.
 */
function openFound(webhookId: string, app: string, find: string): string {
  const parsed = parseFindInput(find);
  if (!parsed.ok) return `That ${parsed.message}.`;
  const { target } = parsed;
  const owner = target.kind === "log" ? target.webhookId : webhookId.toLowerCase();
  redirect(webhookViewHref(owner, { app, log: target.id }));
}
