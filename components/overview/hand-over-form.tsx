"use client";

import { useState, type FormEvent } from "react";
import { ApiError, apiRequest } from "@/lib/browser/api";
import type { ApplicationSummary } from "@/lib/domain/applications";
import { ApiKeyField } from "@/components/ui/api-key-field";
import { Notice } from "@/components/ui/notice";

/**
 * An application whose stored key the hub rejects (rotated or revoked): its webhooks are not
 * polled. Handing over its new key checks that the key reads the same webhooks, then keeps the
 * watches, their names and history under it (and this session's key is replaced too).
 */
export function HandOverForm({ app }: { app: ApplicationSummary }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ field: boolean; text: string } | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const apiKey = String(new FormData(event.currentTarget).get("apiKey") ?? "").trim();
    if (!apiKey) return setError({ field: true, text: `New API key for ${app.name} is required.` });
    setPending(true);
    setError(null);
    try {
      await apiRequest("/api/watches/key", { method: "POST", body: { app: app.id, apiKey } });
      // A full page load: the session cookie now holds the new key, and the header names it.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign("/overview?done=handed-over");
    } catch (caught) {
      setPending(false);
      const apiError = caught instanceof ApiError ? caught : null;
      const fieldText = apiError?.fields?.apiKey?.[0];
      setError({
        field: Boolean(fieldText),
        text: fieldText ?? apiError?.message ?? "The key could not be handed over. Try again.",
      });
    }
  }

  return (
    <Notice tone="warning" title={`The Messaging Hub rejects the stored key of ${app.name}`}>
      <p>
        It was rotated or revoked, so its watched webhooks are not read. Hand over its new key: the console
        checks that it reads the same webhooks, then keeps their watches, names and history.
      </p>
      <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-3">
        <ApiKeyField
          label={`New API key for ${app.name}`}
          error={error?.field ? error.text : null}
          className="min-w-0 flex-1 space-y-1 sm:max-w-sm"
        />
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? "Checking the key…" : "Hand over key"}
        </button>
      </form>
      <div aria-live="assertive">
        {error && !error.field ? <p className="font-medium">{error.text}</p> : null}
      </div>
    </Notice>
  );
}
