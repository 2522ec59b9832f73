"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Field } from "@/components/ui/field";
import { webhookViewHref } from "@/lib/domain/log-view";
import { webhookIdOrLinkInput } from "@/lib/domain/inputs/uuid";

/** Opens a webhook of application `appId` (the one the page shows). */
export function OpenWebhookForm({ appId }: { appId: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = webhookIdOrLinkInput.safeParse(new FormData(event.currentTarget).get("webhookId") ?? "");
    if (!parsed.success) {
      setError(parsed.error.issues[0]!.message);
      return;
    }
    setError(null);
    setPending(true);
    router.push(webhookViewHref(parsed.data, { app: appId }));
  }

  return (
    <form onSubmit={onSubmit} noValidate className="card space-y-2 p-4" aria-label="Open a webhook">
      <Field
        label="Webhook ID"
        className="space-y-2"
        hint="The UUID of the webhook (any case), from the Messaging Hub dashboard or from a delivery you received. A pasted console link works too."
        error={error}
        errorRole="alert"
      >
        {(control) => (
          <div className="flex gap-2">
            <input
              {...control}
              name="webhookId"
              type="text"
              inputMode="text"
              autoComplete="off"
              spellCheck={false}
              placeholder="3f2b6c1e-8d4a-4f0b-9c2d-1a2b3c4d5e6f"
              className="field-input font-mono"
              onChange={() => (error ? setError(null) : undefined)}
            />
            <button type="submit" className="btn btn-primary" disabled={pending}>
              {pending ? "Opening…" : "Open"}
            </button>
          </div>
        )}
      </Field>
    </form>
  );
}
