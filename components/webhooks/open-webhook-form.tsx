"use client";

import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import { webhookIdFrom, webhookViewHref } from "@/lib/domain/log-view";

export function OpenWebhookForm() {
  const id = useId();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const raw = String(new FormData(event.currentTarget).get("webhookId") ?? "");
    if (!raw.trim()) {
      setError("Enter a webhook ID.");
      return;
    }
    const webhookId = webhookIdFrom(raw);
    if (!webhookId) {
      setError(
        "That is not a webhook ID. A webhook ID is a UUID: 32 hexadecimal digits in groups of 8-4-4-4-12, like 3f2b6c1e-8d4a-4f0b-9c2d-1a2b3c4d5e6f.",
      );
      return;
    }
    setError(null);
    setPending(true);
    router.push(webhookViewHref(webhookId));
  }

  return (
    <form onSubmit={onSubmit} noValidate className="card space-y-2 p-4" aria-label="Open a webhook">
      <label htmlFor={`${id}-webhook`} className="field-label">
        Webhook ID
      </label>
      <div className="flex gap-2">
        <input
          id={`${id}-webhook`}
          name="webhookId"
          type="text"
          inputMode="text"
          autoComplete="off"
          spellCheck={false}
          placeholder="3f2b6c1e-8d4a-4f0b-9c2d-1a2b3c4d5e6f"
          className="field-input font-mono"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          onChange={() => (error ? setError(null) : undefined)}
        />
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? "Opening…" : "Open"}
        </button>
      </div>
      <p id={`${id}-hint`} className="field-hint">
        The UUID of the webhook, from the Messaging Hub dashboard or from a delivery you received. A pasted
        console link works too.
      </p>
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
