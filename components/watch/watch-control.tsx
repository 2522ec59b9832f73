"use client";

import Link from "next/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { isApiError } from "@/lib/browser/api";
import { capHint } from "@/lib/domain/inputs/field-message";
import { webhookKeys } from "@/lib/domain/query-keys";
import { WATCH_NAME_MAX } from "@/lib/domain/watch/bulk-input";
import { Field } from "@/components/ui/field";
import { InlineQuestion } from "@/components/ui/inline-question";
import { WebhookAlerts } from "@/components/watch/webhook-alerts";
import { MaintenanceSection } from "@/components/maintenance/maintenance-section";
import {
  renameWatch,
  startWatching,
  stopWatching,
  watchKey,
  watchQueryOptions,
  type WatchSummary,
} from "@/components/watch/watch-api";

type Outcome = { tone: "done" | "error"; text: string; field?: boolean } | null;

/**
 * "Watch" on a webhook's page, with a name for the watch (the API names no webhook); once watched,
 * its name (Rename) and "Stop watching", which asks first: it deletes the stored history. The
 * console checks the webhook with the hub before it keeps the watch; the overview then shows it.
 */
export default function WatchControl({ webhookId }: { webhookId: string }) {
  const queryClient = useQueryClient();
  const { data: watch, error, isPending } = useQuery(watchQueryOptions(webhookId));
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [confirming, setConfirming] = useState(false);
  const submitButton = useRef<HTMLButtonElement>(null);
  const stopButton = useRef<HTMLButtonElement>(null);
  const focusOnClose = useRef<HTMLButtonElement | null>(null);

  // When the question closes, focus goes back to Stop watching, or to Watch once the watch is gone.
  useEffect(() => {
    if (!confirming) focusOnClose.current?.focus();
    focusOnClose.current = null;
  }, [confirming]);

  function closeQuestion(focus: HTMLButtonElement | null) {
    focusOnClose.current = focus;
    setConfirming(false);
  }

  async function confirmStop() {
    const stopped = await run(
      async () => (await stopWatching(webhookId), null),
      "No longer watched: its stored history, failure issues and alert settings were deleted.",
    );
    closeQuestion(stopped ? submitButton.current : stopButton.current);
  }

  /** Saves a change of the watch; false when it was refused (said in the status line or the field). */
  async function run(action: () => Promise<WatchSummary | null>, done: string): Promise<boolean> {
    setBusy(true);
    setOutcome(null);
    try {
      const before = watch ?? null;
      const after = await action();
      queryClient.setQueryData(watchKey(webhookId), after);
      // Who answers the webhook's history changed (its store came or went): what was read from it is read again.
      if (before?.appId !== after?.appId)
        void queryClient.invalidateQueries({ queryKey: webhookKeys.webhook(webhookId) });
      setOutcome({ tone: "done", text: done });
      return true;
    } catch (caught) {
      const apiError = isApiError(caught) ? caught : null;
      const fieldError = apiError?.fields?.name?.[0] ?? apiError?.fields?.webhookId?.[0];
      setOutcome({
        tone: "error",
        text: fieldError ?? apiError?.message ?? "The change could not be saved. Try again.",
        field: Boolean(apiError?.fields?.name),
      });
      return false;
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    if (watch) void run(() => renameWatch(webhookId, name), `Renamed: watched as "${name || "(no name)"}".`);
    else
      void run(
        () => startWatching(webhookId, name),
        "Watching: the overview shows this webhook once the watcher has read it.",
      );
  }

  if (isPending)
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">Checking whether it is watched…</p>;
  if (error) {
    return (
      <p className="text-sm text-amber-900 dark:text-amber-200">Watching is unavailable: {error.message}</p>
    );
  }

  const purpose = watch
    ? "Watched: the overview lists it under this name."
    : "A customer's name, say (optional).";
  return (
    <div className="space-y-2 border-t border-zinc-200 pt-3 dark:border-zinc-800">
      <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-x-3 gap-y-2">
        <Field
          label="Watch name"
          hint={`${purpose} ${capHint(WATCH_NAME_MAX)}`}
          error={outcome?.tone === "error" && outcome.field ? outcome.text : null}
          className="min-w-0 basis-full space-y-1 sm:max-w-xs sm:flex-1"
        >
          {(control) => (
            <input
              {...control}
              key={watch?.name ?? ""}
              name="name"
              type="text"
              autoComplete="off"
              defaultValue={watch?.name ?? ""}
              className="field-input"
            />
          )}
        </Field>
        <button
          ref={submitButton}
          type="submit"
          className={watch ? "btn btn-secondary" : "btn btn-primary"}
          disabled={busy}
        >
          {watch ? "Rename watch" : "Watch"}
        </button>
        {watch ? (
          <button
            ref={stopButton}
            type="button"
            className="btn btn-secondary"
            disabled={busy}
            aria-expanded={confirming}
            onClick={() => setConfirming(true)}
          >
            Stop watching
          </button>
        ) : null}
        {watch ? (
          <Link href="/overview" className="btn-link text-sm">
            Overview
          </Link>
        ) : null}
      </form>
      {watch && confirming ? (
        <InlineQuestion
          question={
            "Stop watching? This deletes the delivery history the console stored for this webhook, its failure " +
            "issues and its alert settings. The hub keeps its own logs."
          }
          confirm="Delete and stop watching"
          pending="Deleting…"
          busy={busy}
          onConfirm={() => void confirmStop()}
          onCancel={() => closeQuestion(stopButton.current)}
        />
      ) : null}
      <p role="status" className="text-sm">
        {outcome && !outcome.field ? (
          <span className={outcome.tone === "error" ? "text-red-800 dark:text-red-300" : ""}>
            {outcome.text}
          </span>
        ) : null}
      </p>
      {watch ? <WebhookAlerts webhookId={webhookId} /> : null}
      {watch ? <MaintenanceSection webhookId={webhookId} /> : null}
    </div>
  );
}
