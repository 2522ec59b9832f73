"use client";

import { useId, useMemo, useRef, useState, type ReactNode } from "react";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { formatBody, formatBytes } from "@/lib/domain/format-body";
import { useNow } from "@/lib/browser/use-now";
import { formatExactUtc, formatTimestamp, timeStyleAt } from "@/lib/domain/format-time";
import { statusMeaning } from "@/lib/domain/status-meaning";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/logs/status-badge";
import { DescriptionItem } from "@/components/ui/description-item";
import { RETRY_UNAVAILABLE_REASON } from "@/components/logs/retry-unavailable";
import { LastSuccessComparison } from "@/components/logs/log-details-comparison";

/* The body of the details dialog: everything about one delivery. A chunk of its own, outside the first load. */

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DescriptionItem
      label={label}
      labelStyle="strong"
      className="min-w-0"
      valueClassName="mt-0.5 text-sm break-words"
    >
      {children}
    </DescriptionItem>
  );
}

/** The viewer's time, and under it the exact UTC time to match against the endpoint's logs (unless the viewer's zone is UTC). */
function Timestamp({ iso }: { iso: string }) {
  const style = timeStyleAt(useNow());
  const utc = formatExactUtc(iso, style);
  const local = formatTimestamp(iso, style, true);
  return (
    <>
      <LocalTime iso={iso} />
      {utc === local ? null : <span className="block text-xs text-zinc-600 dark:text-zinc-400">{utc}</span>}
    </>
  );
}

export function LogDetails({ log }: { log: WebhookLog }) {
  const meaning = statusMeaning(log.statusCode);
  const retryReasonId = useId();

  return (
    // On a phone the response body comes first: it is what a person opens a delivery for.
    <div className="flex flex-col gap-5">
      <section aria-label="Outcome" className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={log.status} />
          <span className="font-semibold">{meaning.title}</span>
        </div>
        <dl className="grid gap-2 rounded-lg bg-zinc-50 p-3 text-sm sm:grid-cols-2 dark:bg-zinc-800/60">
          <DescriptionItem label="Likely cause" labelStyle="caps" valueClassName="mt-0.5">
            {meaning.cause}
          </DescriptionItem>
          <DescriptionItem label="Next step" labelStyle="caps" valueClassName="mt-0.5">
            {meaning.nextStep}
          </DescriptionItem>
        </dl>
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className="btn btn-secondary" disabled aria-describedby={retryReasonId}>
            Retry
          </button>
          <p id={retryReasonId} className="text-xs text-zinc-600 dark:text-zinc-400">
            {RETRY_UNAVAILABLE_REASON}. To deliver again, send a new test message.
          </p>
        </div>
      </section>

      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2 lg:grid-cols-3">
        <Field label="HTTP status">{log.statusCode === 0 ? "0 (no connection)" : log.statusCode}</Field>
        <Field label="Log ID">
          <span className="font-mono text-xs">{log.id}</span>
        </Field>
        <Field label="Message ID">
          {log.messageId ? <span className="font-mono text-xs">{log.messageId}</span> : "none"}
        </Field>
        <Field label="Sent at">
          <Timestamp iso={log.sendAt} />
        </Field>
        <Field label="Created">
          <Timestamp iso={log.createdDate} />
        </Field>
        <Field label="Webhook">
          <span className="block break-all">{log.webhook.endpoint}</span>
          <span className="block font-mono text-xs text-zinc-600 dark:text-zinc-400">
            {log.webhook.id} · {log.webhook.eventType}
          </span>
        </Field>
      </dl>

      <ResponseBody body={log.responseBody} />

      {log.status === "Failed" ? <LastSuccessComparison log={log} /> : null}
    </div>
  );
}

function ResponseBody({ body }: { body: string }) {
  const formatted = useMemo(() => formatBody(body), [body]);
  const [copyState, setCopyState] = useState<string>("");
  const preRef = useRef<HTMLPreElement>(null);
  const headingId = useId();

  async function copy() {
    try {
      await navigator.clipboard.writeText(body);
      setCopyState("Response body copied to the clipboard.");
    } catch {
      // No clipboard access (permissions, http): select the text so Ctrl+C copies it.
      const pre = preRef.current;
      const selection = window.getSelection();
      if (pre && selection) {
        const range = document.createRange();
        range.selectNodeContents(pre);
        selection.removeAllRanges();
        selection.addRange(range);
      }
      setCopyState("Copying was not allowed; the text is selected, press Ctrl+C (or ⌘C) to copy it.");
    }
  }

  const description =
    formatted.kind === "json"
      ? "JSON, pretty-printed"
      : formatted.kind === "empty"
        ? "empty"
        : formatted.tooLargeToFormat
          ? "JSON, shown as sent (too large to pretty-print)"
          : "shown as sent";

  return (
    <section aria-labelledby={headingId} className="space-y-2 max-sm:order-first">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 id={headingId} className="text-sm font-semibold">
          Response body
        </h3>
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          {formatBytes(formatted.bytes)} · {description}
        </span>
        <button
          type="button"
          className="btn btn-small ml-auto"
          onClick={copy}
          disabled={formatted.kind === "empty"}
        >
          Copy
        </button>
        <span role="status" className="w-full text-xs text-emerald-800 dark:text-emerald-300">
          {copyState}
        </span>
      </div>
      {formatted.kind === "empty" ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">The endpoint answered with an empty body.</p>
      ) : (
        <pre
          ref={preRef}
          tabIndex={0}
          aria-labelledby={headingId}
          className="max-h-[50vh] overflow-auto rounded-lg border border-zinc-200 bg-zinc-50 p-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap dark:border-zinc-800 dark:bg-zinc-950"
        >
          {formatted.text}
        </pre>
      )}
    </section>
  );
}
