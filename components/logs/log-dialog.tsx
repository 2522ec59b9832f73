"use client";

import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import type { WebhookLog } from "@/lib/hub/schemas";
import { formatBody, formatBytes } from "@/lib/logs/format-body";
import { formatUtc } from "@/lib/logs/format-time";
import { RETRY_SUPPORTED, RETRY_UNAVAILABLE_REASON } from "@/lib/logs/retry";
import { statusMeaning } from "@/lib/logs/status-meaning";
import { LocalTime } from "@/components/logs/local-time";
import { StatusBadge } from "@/components/logs/status-badge";
import { DescriptionItem } from "@/components/ui/description-item";
import { buttonStyles } from "@/components/ui/styles";

/**
 * One delivery in full: a native modal `<dialog>` (focus trapped, Esc closes, the rest of the
 * page inert). Mounted only while a log is open; opens itself on mount. The response body is
 * only ever rendered as text, so HTML or script in it shows and never runs.
 */
export function LogDialog({
  logId,
  log,
  loading,
  onClose,
  onRetry,
}: {
  logId: string;
  log: WebhookLog | null;
  loading: boolean;
  onClose: () => void;
  onRetry?: (log: WebhookLog) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);

  return (
    // A click on the backdrop closes it too; the keyboard way is Esc or the Close button.
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
      className="m-auto max-h-[92vh] w-[min(64rem,calc(100vw-1.5rem))] max-w-none overflow-hidden rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-2xl dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <div className="flex max-h-[92vh] flex-col">
        <div className="flex items-start justify-between gap-3 border-b border-zinc-200 px-5 py-3 dark:border-zinc-800">
          <div className="min-w-0">
            <h2 id={titleId} className="text-base font-semibold">
              Delivery details
            </h2>
            <p className="font-mono text-xs break-all text-zinc-600 dark:text-zinc-400">Log {logId}</p>
          </div>
          <button type="button" className={buttonStyles.secondary} onClick={() => ref.current?.close()}>
            Close
          </button>
        </div>
        <div className="overflow-y-auto px-5 py-4">
          {log ? (
            <LogDetails log={log} onRetry={onRetry} />
          ) : loading ? (
            <p role="status">Loading this delivery…</p>
          ) : (
            <p role="status" className="text-sm">
              This delivery is not on the current page of logs: newer deliveries may have pushed it to a later page, or it belongs to
              another webhook. Close this and look through the pages, or filter by status.
            </p>
          )}
        </div>
      </div>
    </dialog>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DescriptionItem label={label} labelStyle="strong" className="min-w-0" valueClassName="mt-0.5 text-sm break-words">
      {children}
    </DescriptionItem>
  );
}

function Timestamp({ iso }: { iso: string }) {
  return (
    <>
      <LocalTime iso={iso} />
      <span className="block font-mono text-xs text-zinc-600 dark:text-zinc-400">{formatUtc(iso)}</span>
    </>
  );
}

function LogDetails({ log, onRetry }: { log: WebhookLog; onRetry?: (log: WebhookLog) => void }) {
  const meaning = statusMeaning(log.statusCode);
  const retryReasonId = useId();

  return (
    <div className="space-y-5">
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
          <button
            type="button"
            className={buttonStyles.secondary}
            disabled={!RETRY_SUPPORTED || !onRetry}
            aria-describedby={retryReasonId}
            onClick={() => onRetry?.(log)}
          >
            Retry
          </button>
          <p id={retryReasonId} className="text-xs text-zinc-600 dark:text-zinc-400">
            {RETRY_SUPPORTED ? "Asks the hub to deliver this event again." : `${RETRY_UNAVAILABLE_REASON}. To deliver again, send a new test message.`}
          </p>
        </div>
      </section>

      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2 lg:grid-cols-3">
        <Field label="HTTP status">{log.statusCode === 0 ? "0 (no connection)" : log.statusCode}</Field>
        <Field label="Log ID">
          <span className="font-mono text-xs">{log.id}</span>
        </Field>
        <Field label="Message ID">{log.messageId ? <span className="font-mono text-xs">{log.messageId}</span> : "none"}</Field>
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
    <section aria-labelledby={headingId} className="space-y-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 id={headingId} className="text-sm font-semibold">
          Response body
        </h3>
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          {formatBytes(formatted.bytes)} · {description}
        </span>
        <button type="button" className={`${buttonStyles.small} ml-auto`} onClick={copy} disabled={formatted.kind === "empty"}>
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
