import Link from "next/link";
import { webhookViewHref } from "@/lib/domain/log-view";
import type { DemoWebhook } from "@/lib/domain/sandbox-demo";

/**
 * Sandbox mode: a demo application's webhooks (one per delivery outcome in the first). `appId`:
 * the application shown is that demo application, so its links name it.
 */
export function DemoWebhooks({ appId, webhooks }: { appId: string | null; webhooks: DemoWebhook[] }) {
  if (webhooks.length === 0) return null;
  return (
    <section aria-labelledby="demo-webhooks-heading" className="card p-4">
      <h2 id="demo-webhooks-heading" className="text-sm font-semibold">
        Sandbox demo webhooks
      </h2>
      <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
        The local sandbox&apos;s demo application has one webhook per kind of outcome.{" "}
        {appId
          ? "Open one to see its deliveries."
          : "Add the sandbox demo key to your applications to open them."}
      </p>
      <ul className="mt-2 divide-y divide-zinc-200 dark:divide-zinc-800">
        {webhooks.map((webhook) => (
          <li key={webhook.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 py-2">
            <Link href={webhookViewHref(webhook.id, { app: appId })} className="btn-link">
              {webhook.label}
            </Link>
            {!webhook.active ? (
              <span className="text-xs font-medium text-zinc-600 dark:text-zinc-400">(inactive)</span>
            ) : null}
            <span className="w-full font-mono text-xs break-all text-zinc-600 dark:text-zinc-400">
              {webhook.endpoint}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
