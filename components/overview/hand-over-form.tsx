"use client";

import { useState, type FormEvent } from "react";
import { ApiError, apiRequest } from "@/lib/browser/api";
import type { ApplicationSummary } from "@/lib/domain/applications";
import type { HandOverPlan } from "@/lib/domain/watch/hand-over";
import { ApiKeyField } from "@/components/ui/api-key-field";
import { Notice } from "@/components/ui/notice";
import { HandOverChoices } from "@/components/overview/hand-over-choices";

/**
 * An application whose key the hub rejects (rotated or revoked): its webhooks are not polled,
 * and the console no longer shows what it keeps for it. Handing over its new key checks that the
 * key reads the same webhooks, lists what would move (watches, rules, snoozes, quiet hours, alert
 * destinations), and lets the person keep or drop each destination before anything moves; the
 * session's key is then replaced too.
 */
export function HandOverForm({ app }: { app: ApplicationSummary }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ field: boolean; text: string } | null>(null);
  const [apiKey, setApiKey] = useState("");
  const [plan, setPlan] = useState<HandOverPlan | null>(null);

  async function send(body: { apiKey: string; keepDestinations?: string[] }) {
    setPending(true);
    setError(null);
    try {
      const answer = await apiRequest<{ handOver?: HandOverPlan }>("/api/watches/key", {
        method: "POST",
        body: { app: app.id, ...body },
      });
      if (answer.handOver) {
        setApiKey(body.apiKey);
        setPlan(answer.handOver);
        setPending(false);
        return;
      }
      // A full page load: the session cookie now holds the new key, and the header names it.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign("/overview?done=handed-over");
    } catch (caught) {
      setPending(false);
      const apiError = caught instanceof ApiError ? caught : null;
      const fieldText = apiError?.fields?.apiKey?.[0];
      if (fieldText) setPlan(null);
      setError({
        field: Boolean(fieldText),
        text:
          fieldText ??
          apiError?.fields?.keepDestinations?.[0] ??
          apiError?.message ??
          "The key could not be handed over. Try again.",
      });
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = String(new FormData(event.currentTarget).get("apiKey") ?? "").trim();
    if (!typed) return setError({ field: true, text: `New API key for ${app.name} is required.` });
    void send({ apiKey: typed });
  }

  return (
    <Notice tone="warning" title={`The Messaging Hub rejects the stored key of ${app.name}`}>
      <p>
        It was rotated or revoked, so its watched webhooks are not read, and the console no longer shows what
        it keeps for it. Hand over its new key: the console checks that it reads the same webhooks, lists what
        it would carry over, and lets you choose which alert destinations to keep.
      </p>
      {plan ? (
        <HandOverChoices
          plan={plan}
          title={`What the new key of ${app.name} takes over`}
          submitLabel="Carry over and use the new key"
          pending={pending}
          error={error?.text ?? null}
          onCarry={(keepDestinations) => void send({ apiKey, keepDestinations })}
          onSkip={() => setPlan(null)}
          skipLabel="Back"
        />
      ) : (
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
      )}
      {!plan ? (
        <div aria-live="assertive">
          {error && !error.field ? <p className="font-medium">{error.text}</p> : null}
        </div>
      ) : null}
    </Notice>
  );
}
