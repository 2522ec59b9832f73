"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { findDelivery } from "@/lib/browser/queries";
import { webhookKeys } from "@/lib/domain/query-keys";
import { setLogView } from "@/components/logs/use-log-view";
import { Field } from "@/components/ui/field";

/**
 * "Find a delivery": a message ID, a log ID or a pasted console link opens that delivery's
 * details, wherever it is in the history (the server scans for it and stops once found).
 */
export function FindDelivery({ webhookId }: { webhookId: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);
  const controller = useRef<AbortController | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = String(new FormData(event.currentTarget).get("q") ?? "").trim();
    if (!q) {
      setError("Paste a message ID, a log ID or a console link to a delivery.");
      return;
    }
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setError(null);
    setSearching(true);
    try {
      const { log } = await findDelivery(webhookId, q, abort.signal);
      queryClient.setQueryData(webhookKeys.found(webhookId, log.id), log);
      setLogView({ log: log.id }, { history: "replace" });
    } catch (caught) {
      if (!abort.signal.aborted) setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      if (controller.current === abort) setSearching(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Find a delivery" className="text-sm">
      <Field
        label="Find a delivery"
        hint="A message ID, a log ID or a console link: opens its details, wherever it is in the history."
        error={error}
        errorRole="alert"
      >
        {(control) => (
          <div className="flex flex-wrap gap-2">
            <input
              {...control}
              name="q"
              autoComplete="off"
              spellCheck={false}
              maxLength={2048}
              className="field-input min-w-0 flex-1 font-mono"
            />
            <button type="submit" className="btn btn-secondary" disabled={searching}>
              {searching ? "Finding…" : "Find"}
            </button>
            {searching ? (
              <button type="button" className="btn btn-small" onClick={() => controller.current?.abort()}>
                Cancel
              </button>
            ) : null}
          </div>
        )}
      </Field>
    </form>
  );
}
