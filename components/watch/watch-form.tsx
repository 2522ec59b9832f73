"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { isApiError } from "@/lib/browser/api";
import { capHint } from "@/lib/domain/inputs/field-message";
import { WATCH_NAME_MAX } from "@/lib/domain/watch/bulk-input";
import { Field } from "@/components/ui/field";
import { startWatching } from "@/components/watch/watch-api";

/**
 * "Watch", with a name for the watch (the API names no webhook). The console checks the webhook
 * with the hub before it keeps the watch; the page then shows it watched, and the overview lists
 * it once the watcher has read it.
 */
export function WatchForm({ webhookId }: { webhookId: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ text: string; field: boolean } | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    setBusy(true);
    setOutcome(null);
    try {
      await startWatching(webhookId, name);
      router.refresh();
    } catch (caught) {
      const apiError = isApiError(caught) ? caught : null;
      const fieldError = apiError?.fields?.name?.[0] ?? apiError?.fields?.webhookId?.[0];
      setOutcome({
        text: fieldError ?? apiError?.message ?? "The watch could not be saved. Try again.",
        field: Boolean(apiError?.fields?.name),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-x-3 gap-y-2">
      <Field
        label="Watch name"
        hint={`A customer's name, say (optional). ${capHint(WATCH_NAME_MAX)}`}
        error={outcome?.field ? outcome.text : null}
        className="min-w-0 basis-full space-y-1 sm:max-w-xs sm:flex-1"
      >
        {(control) => (
          <input {...control} name="name" type="text" autoComplete="off" className="field-input" />
        )}
      </Field>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        Watch
      </button>
      <p role="status" className="basis-full text-sm empty:hidden">
        {outcome && !outcome.field ? (
          <span className="text-red-800 dark:text-red-300">{outcome.text}</span>
        ) : busy ? (
          "Checking the webhook with the hub…"
        ) : null}
      </p>
    </form>
  );
}
