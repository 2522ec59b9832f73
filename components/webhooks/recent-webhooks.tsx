"use client";

import Link from "next/link";
import { forgetRecentWebhooks, useRecentWebhooks } from "@/lib/browser/local-store";
import { webhookViewHref } from "@/lib/domain/log-view";

/** The webhooks of one application opened recently in this browser (ids and endpoints only; never the key). */
export function RecentWebhooks({ appId }: { appId: string }) {
  const recent = useRecentWebhooks(appId);
  if (recent.length === 0) return null;

  return (
    <section aria-labelledby="recent-webhooks-heading" className="card p-4">
      <div className="flex items-center justify-between gap-2">
        <h2 id="recent-webhooks-heading" className="text-sm font-semibold">
          Opened recently
        </h2>
        <button type="button" className="btn btn-small" onClick={() => forgetRecentWebhooks(appId)}>
          Clear list
        </button>
      </div>
      <ul className="mt-2 divide-y divide-zinc-200 dark:divide-zinc-800">
        {recent.map((webhook) => (
          <li key={webhook.id} className="py-2">
            <Link href={webhookViewHref(webhook.id, { app: appId })} className="btn-link break-all">
              {webhook.endpoint || webhook.id}
            </Link>
            <p className="font-mono text-xs text-zinc-600 dark:text-zinc-400">
              {webhook.id}
              {webhook.eventType ? ` · ${webhook.eventType}` : ""}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
