import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { ErrorPanel } from "@/components/errors/error-panel";
import { BundleForm } from "@/components/bundle/bundle-form";
import { BundlePreview } from "@/components/bundle/bundle-preview";
import type { BundleFile } from "@/components/bundle/bundle-downloads";
import { bundleFileName, type BundleFormat, type SupportBundle } from "@/lib/domain/bundle/bundle";
import { parseBundleRequest } from "@/lib/domain/bundle/bundle-request";
import { BUNDLE_CONTENT_TYPES, renderBundle } from "@/lib/domain/bundle/render";
import { webhookViewHref } from "@/lib/domain/log-view";
import { webhookTitle } from "@/lib/domain/webhook-name";
import { isAppError } from "@/lib/server/app-error";
import { getWebhook } from "@/lib/server/hub/client";
import { parseWebhookId, type WebhookId } from "@/lib/server/hub/path-params";
import { supportBundle } from "@/lib/server/bundle/support-bundle";
import { redirectToSignIn, requireSignedInPage } from "@/lib/server/session/redirect";
import { getSession, type Application } from "@/lib/server/session/session";
import { keyRejected, storeAccess } from "@/lib/server/watch/store-access";

interface Props {
  params: Promise<{ webhookId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** The webhook, read once per request for both the tab's title and the bundle. */
const readWebhook = cache((apiKey: string, webhookId: WebhookId) => getWebhook({ apiKey }, webhookId));

/** The tab names the webhook (its name, else its endpoint), so that bundles of several webhooks can be told apart. */
export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const webhookId = parseWebhookId((await params).webhookId);
  const { app } = await searchParams;
  const session = await getSession();
  const application =
    session.status === "signed_in" ? session.data.applications.find(({ id }) => id === app) : undefined;
  if (!webhookId || !application) return { title: "Support bundle" };
  const webhook = await readWebhook(application.apiKey, webhookId).catch(() => null);
  return {
    title: { absolute: `Support bundle · ${webhook ? webhookTitle(webhook) : `Webhook ${webhookId}`}` },
  };
}

const FORMAT_LABELS = { md: "Markdown", html: "HTML", json: "JSON" } as const;

/**
 * `/webhooks/{id}/bundle?app=&from=&to=&tz=&issue=`: the support bundle of a window (or of a
 * failure issue), previewed exactly as it will be shared (each format rendered once, here, and
 * downloaded from that same text).
 */
export default async function BundlePage({ params, searchParams }: Props) {
  const webhookId = parseWebhookId((await params).webhookId);
  if (!webhookId) notFound();
  const query = await searchParams;
  const one = (name: string) => (typeof query[name] === "string" ? query[name] : "");
  const here = `/webhooks/${webhookId}/bundle?${new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  )}`;
  const data = await requireSignedInPage(here);
  const appId = one("app");
  if (!appId) redirect(`${here}&app=${data.current}`);
  const app = data.applications.find(({ id }) => id === appId);
  if (!app) notFound();

  const values = { from: one("from"), to: one("to"), tz: one("tz") || "UTC" };
  const issue = one("issue");
  const { errors, bundle, failure, files } = await prepare(app, webhookId, one);
  return (
    <div className="space-y-5">
      <div className="space-y-1">
        <Link href={webhookViewHref(webhookId, { app: appId })} className="btn-link text-sm">
          Back to the webhook
        </Link>
        <h1 className="text-xl font-semibold">Support bundle</h1>
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          A hand-over for the customer: what failed, since when, why, and what to fix. Secrets and personal
          data are masked before anything is shown here; what you see below is exactly what will be shared.
        </p>
      </div>
      <BundleForm
        app={appId}
        issue={issue || null}
        values={values}
        errors={errors}
        webhookHref={webhookViewHref(webhookId, { app: appId })}
      />
      {failure ? <ErrorPanel status={failure.status} message={failure.message} role="alert" /> : null}
      {bundle && files ? <BundlePreview bundle={bundle} files={files} /> : null}
    </div>
  );
}

/** The bundle the URL asks for, with each format rendered; field errors or a failure instead. */
async function prepare(app: Application, webhookId: WebhookId, one: (name: string) => string) {
  const parsed = parseBundleRequest({ get: (name) => one(name) || null });
  if (!parsed.ok) return { errors: parsed.errors, bundle: null, failure: null, files: null };
  try {
    // The bundle reads the watch's store too: not for a key the hub rejects.
    if ((await storeAccess([app])).allowed.length === 0) throw keyRejected(app);
    const bundle = await supportBundle(
      { apiKey: app.apiKey, appId: app.id, signal: new AbortController().signal },
      webhookId,
      parsed.value,
      { readWebhook: () => readWebhook(app.apiKey, webhookId) },
    );
    return { errors: {}, bundle, failure: null, files: filesOf(bundle, webhookId) };
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === "unauthorized") redirectToSignIn("key_rejected");
    if (error.code === "not_found" && !parsed.value.issue) notFound();
    return {
      errors: {},
      bundle: null,
      failure: { status: error.status, message: error.message },
      files: null,
    };
  }
}

function filesOf(bundle: SupportBundle, webhookId: string): Record<BundleFormat, BundleFile> {
  const file = (format: BundleFormat): BundleFile => ({
    label: FORMAT_LABELS[format],
    fileName: bundleFileName(webhookId, Date.parse(bundle.window.from), format),
    contentType: BUNDLE_CONTENT_TYPES[format],
    text: renderBundle(bundle, format),
  });
  return { md: file("md"), html: file("html"), json: file("json") };
}
