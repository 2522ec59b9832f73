"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { isApiError } from "@/lib/browser/api";
import { capHint } from "@/lib/domain/inputs/field-message";
import { WATCH_NAME_MAX } from "@/lib/domain/watch/bulk-input";
import { Field } from "@/components/ui/field";
import { InlineQuestion } from "@/components/ui/inline-question";
import { WatchForm } from "@/components/watch/watch-form";
import { WebhookAlerts } from "@/components/watch/webhook-alerts";
import { MaintenanceSection } from "@/components/maintenance/maintenance-section";
import { renameWatch, stopWatching, type WatchSummary } from "@/components/watch/watch-api";

type Outcome = { tone: "done" | "error"; text: string; field?: boolean } | null;

/**
 * A watched webhook's settings: the watch's name (Rename), its alerts (snooze, rules, quiet
 * hours), and "Stop watching", which asks first: it deletes the stored history. `watch` is as the
 * server read it; after a change the page asks the server again. Unwatched: Watch.
 */
export function WatchControl({ webhookId, watch }: { webhookId: string; watch: WatchSummary | null }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [confirming, setConfirming] = useState(false);
  const stopButton = useRef<HTMLButtonElement>(null);
  const said = useRef<HTMLParagraphElement>(null);
  const focusOnClose = useRef<HTMLElement | null>(null);

  // When the question closes, focus goes back to Stop watching, or to what was said once it is gone.
  useEffect(() => {
    if (!confirming) focusOnClose.current?.focus();
    focusOnClose.current = null;
  }, [confirming]);

  // The refreshed page renders the unwatched layout, whose status line is a new element: focus moves to it.
  const focusSaidWhenUnwatched = useRef(false);
  useEffect(() => {
    if (watch || !focusSaidWhenUnwatched.current) return;
    focusSaidWhenUnwatched.current = false;
    said.current?.focus();
  }, [watch]);

  function closeQuestion(focus: HTMLElement | null) {
    focusOnClose.current = focus;
    setConfirming(false);
  }

  /** Saves a change of the watch; false when it was refused (said in the status line or the field). */
  async function run(action: () => Promise<unknown>, done: string): Promise<boolean> {
    setBusy(true);
    setOutcome(null);
    try {
      await action();
      setOutcome({ tone: "done", text: done });
      router.refresh();
      return true;
    } catch (caught) {
      const apiError = isApiError(caught) ? caught : null;
      const fieldError = apiError?.fields?.name?.[0];
      setOutcome({
        tone: "error",
        text: fieldError ?? apiError?.message ?? "The change could not be saved. Try again.",
        field: Boolean(fieldError),
      });
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function confirmStop() {
    const stopped = await run(
      () => stopWatching(webhookId),
      "No longer watched: its stored history, failure issues and alert settings were deleted.",
    );
    focusSaidWhenUnwatched.current = stopped;
    closeQuestion(stopped ? said.current : stopButton.current);
  }

  function onRename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    void run(() => renameWatch(webhookId, name), `Renamed: watched as "${name || "(no name)"}".`);
  }

  const status = (
    <p ref={said} role="status" tabIndex={-1} className="rounded-sm text-sm">
      {outcome && !outcome.field ? (
        <span className={outcome.tone === "error" ? "text-red-800 dark:text-red-300" : ""}>
          {outcome.text}
        </span>
      ) : null}
    </p>
  );
  if (!watch) {
    return (
      <section aria-labelledby="watch-heading" className="card space-y-3 p-4">
        <h2 id="watch-heading" className="text-base font-semibold">
          Watch
        </h2>
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          Not watched: the console keeps no record of its deliveries, and no alert is sent for it.
        </p>
        {status}
        <WatchForm webhookId={webhookId} />
      </section>
    );
  }
  return (
    <>
      <section aria-labelledby="watch-heading" className="card space-y-3 p-4">
        <h2 id="watch-heading" className="text-base font-semibold">
          Watch
        </h2>
        <form onSubmit={onRename} noValidate className="flex flex-wrap items-end gap-x-3 gap-y-2">
          <Field
            label="Watch name"
            hint={`Watched: the overview lists it under this name. ${capHint(WATCH_NAME_MAX)}`}
            error={outcome?.tone === "error" && outcome.field ? outcome.text : null}
            className="min-w-0 basis-full space-y-1 sm:max-w-xs sm:flex-1"
          >
            {(control) => (
              <input
                {...control}
                key={watch.name}
                name="name"
                type="text"
                autoComplete="off"
                defaultValue={watch.name}
                className="field-input"
              />
            )}
          </Field>
          <button type="submit" className="btn btn-secondary" disabled={busy}>
            Rename watch
          </button>
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
          <Link href="/overview" className="btn-link text-sm">
            Overview
          </Link>
        </form>
        {confirming ? (
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
        {status}
      </section>
      <div className="card p-4">
        <WebhookAlerts webhookId={webhookId} />
      </div>
      <div className="card p-4">
        <MaintenanceSection webhookId={webhookId} />
      </div>
    </>
  );
}
