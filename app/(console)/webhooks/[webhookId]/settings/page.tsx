import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { Notice } from "@/components/ui/notice";
import { QueryProvider } from "@/components/ui/query-provider";
import { WatchControl } from "@/components/watch/watch-control";
import { webhookViewHref } from "@/lib/domain/log-view";
import { webhookTitle } from "@/lib/domain/webhook-name";
import { isAppError } from "@/lib/server/app-error";
import { parseWebhookId } from "@/lib/server/hub/path-params";
import { redirectToSignIn, requireSignedInPage } from "@/lib/server/session/redirect";
import { readWatch, readWebhook } from "@/app/(console)/webhooks/[webhookId]/reads";

interface Props {
  params: Promise<{ webhookId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export const metadata: Metadata = { title: "Watch and alert settings" };

/**
 * `/webhooks/{id}/settings?app=`: a webhook's watch and alert settings, one click from its page
 * (which keeps the answers first): the watch's name, snooze, its alert rules and quiet hours, and
 * Stop watching; Watch when nobody watches it.
 */
export default async function WebhookSettingsPage({ params, searchParams }: Props) {
  const webhookId = parseWebhookId((await params).webhookId);
  if (!webhookId) notFound();
  const { app: appParam } = await searchParams;
  const appId = typeof appParam === "string" ? appParam : "";
  const here = `/webhooks/${webhookId}/settings`;
  const data = await requireSignedInPage(appId ? `${here}?app=${appId}` : here);
  if (!appId) redirect(`${here}?app=${data.current}`);
  const app = data.applications.find(({ id }) => id === appId);
  if (!app) notFound();

  const [read, watched] = await Promise.all([
    readWebhook(app.apiKey, webhookId).then(
      (webhook) => ({ webhook, error: null }),
      (error: unknown) => ({ webhook: null, error: isAppError(error) ? error : null }),
    ),
    readWatch(webhookId),
  ]);
  if (read.error?.code === "unauthorized") redirectToSignIn("key_rejected");
  if (read.error?.code === "not_found") notFound();
  const { watch } = watched;
  const name = watch?.name || (read.webhook ? webhookTitle(read.webhook) : `Webhook ${webhookId}`);
  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <div className="space-y-1">
        <Link href={webhookViewHref(webhookId, { app: app.id })} className="btn-link text-sm">
          Back to the webhook
        </Link>
        <h1 className="text-xl font-semibold break-words">
          Settings <span className="font-normal text-zinc-600 dark:text-zinc-400">· {name}</span>
        </h1>
        {read.webhook ? (
          <p className="font-mono text-xs break-all text-zinc-700 dark:text-zinc-300">
            {read.webhook.endpoint}
          </p>
        ) : null}
      </div>
      {watched.failure ? (
        <Notice tone="warning" role="alert" title="The watch's store is unavailable">
          <p>{watched.failure}</p>
        </Notice>
      ) : (
        <QueryProvider>
          <WatchControl
            webhookId={webhookId}
            watch={watch ? { webhookId: watch.webhookId, appId: watch.appId, name: watch.name } : null}
          />
        </QueryProvider>
      )}
    </div>
  );
}
