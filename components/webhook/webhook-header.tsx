"use client";

import { useEffect, useState } from "react";
import type { Webhook } from "@/lib/domain/hub-schemas";
import { rememberWebhook } from "@/lib/browser/local-store";
import { useLogView } from "@/components/logs/use-log-view";
import { DescriptionItem } from "@/components/ui/description-item";
import { formatCount } from "@/lib/domain/format-count";
import { webhookName } from "@/lib/domain/webhook-name";
import { WatchPart } from "@/components/watch/watch-part";

const SENSITIVE_KEY = /secret|token|password|passphrase|api[-_]?key|signature/i;

/** The webhook: endpoint, event type, Active/Inactive, Errors, and every field the API returned. */
export function WebhookHeader({ webhookId, webhook }: { webhookId: string; webhook: Webhook | undefined }) {
  const id = webhook?.id;
  const endpoint = webhook?.endpoint;
  const eventType = webhook?.eventType;
  // Remembered under the page's application (the page always names it: see its server part).
  const [{ app }] = useLogView();
  useEffect(() => {
    if (id && app && endpoint !== undefined)
      rememberWebhook(app, { id, endpoint, eventType: eventType ?? "" });
  }, [app, id, endpoint, eventType]);

  if (!webhook) {
    return (
      <section className="card p-4" aria-busy="true">
        <h1 className="text-lg font-semibold">Webhook {webhookId}</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading the webhook…</p>
      </section>
    );
  }

  const name = webhookName(webhook);
  return (
    <section className="card space-y-3 p-4" aria-labelledby="webhook-endpoint">
      <div>
        <p className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Webhook endpoint</p>
        <h1 id="webhook-endpoint" className="text-lg leading-snug font-semibold break-all">
          {webhook.endpoint}
          {name ? (
            <span className="ml-2 text-base font-medium text-zinc-700 dark:text-zinc-300">
              <span className="sr-only">, named </span>
              {name}
            </span>
          ) : null}
        </h1>
      </div>
      <dl className="flex flex-wrap gap-x-8 gap-y-2 text-sm">
        <DescriptionItem label="Event type" valueClassName="font-medium">
          {webhook.eventType}
        </DescriptionItem>
        <DescriptionItem label="State" valueClassName="font-semibold">
          {webhook.active ? (
            <span className="text-emerald-800 dark:text-emerald-300">Active</span>
          ) : (
            <span>Inactive</span>
          )}
        </DescriptionItem>
        <DescriptionItem
          label="Errors"
          valueClassName={`font-semibold tabular-nums ${webhook.numberOfErrors > 0 ? "text-red-800 dark:text-red-300" : ""}`}
        >
          {formatCount(webhook.numberOfErrors)}
        </DescriptionItem>
        <DescriptionItem label="ID" className="min-w-0" valueClassName="font-mono text-xs break-all">
          {webhook.id}
        </DescriptionItem>
      </dl>
      {!webhook.active ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          This webhook is inactive: the hub does not call its endpoint, so new messages cause no deliveries
          here.
        </p>
      ) : null}
      <AllFields webhook={webhook} />
      <WatchPart webhookId={webhook.id} />
    </section>
  );
}

function AllFields({ webhook }: { webhook: Webhook }) {
  const entries = Object.entries(webhook);
  return (
    <details className="group text-sm">
      <summary className="w-fit cursor-pointer rounded-sm font-medium text-blue-700 select-none dark:text-blue-400">
        All fields{" "}
        <span className="text-xs font-normal text-zinc-600 dark:text-zinc-400">
          ({entries.length}, as the API returned them)
        </span>
      </summary>
      <dl className="mt-2 grid gap-x-6 gap-y-2 rounded-lg bg-zinc-50 p-3 sm:grid-cols-[max-content_1fr] dark:bg-zinc-800/60">
        {entries.map(([key, value]) => (
          <div key={key} className="contents">
            <dt className="font-mono text-xs font-semibold text-zinc-700 dark:text-zinc-300">{key}</dt>
            <dd className="min-w-0 font-mono text-xs break-all">
              {SENSITIVE_KEY.test(key) && value !== null && value !== "" ? (
                <HiddenValue value={value} />
              ) : (
                <FieldValue value={value} />
              )}
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

function FieldValue({ value }: { value: unknown }) {
  if (value === null || value === undefined)
    return <span className="text-zinc-600 dark:text-zinc-400">null</span>;
  if (typeof value === "object")
    return <pre className="whitespace-pre-wrap">{JSON.stringify(value, null, 2)}</pre>;
  return <>{String(value)}</>;
}

/** A field that looks like a credential stays hidden until asked for. */
function HiddenValue({ value }: { value: unknown }) {
  const [shown, setShown] = useState(false);
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {shown ? (
        <FieldValue value={value} />
      ) : (
        <span>
          <span aria-hidden="true">••••••••</span>
          <span className="sr-only">hidden</span>
        </span>
      )}
      <button type="button" className="btn btn-small" onClick={() => setShown(!shown)} aria-pressed={shown}>
        {shown ? "Hide" : "Show"}
      </button>
    </span>
  );
}
