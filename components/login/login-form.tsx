"use client";

import { useState, type FormEvent } from "react";
import { ApiError, apiRequest } from "@/lib/browser/api";
import { useHydrated } from "@/lib/browser/use-hydrated";
import { ApiKeyField } from "@/components/ui/api-key-field";
import { Notice } from "@/components/ui/notice";
import { API_KEY_HINT, signInSchema } from "@/lib/domain/inputs/api-key";
import { safeNextPath } from "@/lib/domain/safe-next";
import type { HandOverPlan } from "@/lib/domain/watch/hand-over";
import { HandOverOffers } from "@/components/overview/hand-over-offers";

type Pending = "key" | "demo" | null;

/** Sign in with an API key (`POST /api/session`), or in sandbox mode with the demo key (`POST /api/session/demo`). */
export function LoginForm({ next, sandboxMode }: { next: string; sandboxMode: boolean }) {
  // Until the script runs, the form cannot submit: a native submission would carry the key off
  // the server (a GET puts it in the URL), so the button stays disabled, which also blocks Enter.
  const hydrated = useHydrated();
  const [pending, setPending] = useState<Pending>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [offers, setOffers] = useState<HandOverPlan[]>([]);

  // A full page load: nothing cached for another key survives a sign-in. Checked here too, by
  // the server's rule, so the form never leaves the console whatever it was given.
  const goOn = () => window.location.assign(safeNextPath(next));

  async function signIn(kind: Exclude<Pending, null>, apiKey?: string) {
    setPending(kind);
    setError(null);
    try {
      const answer = await apiRequest<{ handOver?: HandOverPlan[] }>(
        kind === "key" ? "/api/session" : "/api/session/demo",
        { method: "POST", body: kind === "key" ? { apiKey } : undefined },
      );
      // What the console keeps for this key's application under its old key is offered first.
      if (answer.handOver?.length) setOffers(answer.handOver);
      else goOn();
    } catch (caught) {
      setPending(null);
      if (caught instanceof ApiError && caught.status === 400 && caught.fields?.apiKey) {
        setFieldError(caught.message);
      } else {
        setError(caught instanceof ApiError ? caught.message : "Signing in failed. Try again.");
      }
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = signInSchema.safeParse({ apiKey: new FormData(event.currentTarget).get("apiKey") ?? "" });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]!.message);
      return;
    }
    setFieldError(null);
    void signIn("key", parsed.data.apiKey);
  }

  if (offers.length) return <HandOverOffers offers={offers} onDone={goOn} />;

  return (
    <div className="space-y-4 rounded-lg border border-zinc-200 bg-white p-5 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
      <form method="post" onSubmit={onSubmit} noValidate className="space-y-3">
        <ApiKeyField label="API key" hint={API_KEY_HINT} error={fieldError} required />
        <button type="submit" className="btn btn-primary w-full" disabled={!hydrated || pending !== null}>
          {pending === "key" ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {sandboxMode ? (
        <div className="border-t border-zinc-200 pt-4 dark:border-zinc-800">
          <button
            type="button"
            className="btn btn-secondary w-full"
            disabled={pending !== null}
            onClick={() => void signIn("demo")}
          >
            {pending === "demo" ? "Signing in…" : "Use sandbox demo key"}
          </button>
        </div>
      ) : null}
      <div aria-live="assertive">
        {error ? (
          <Notice tone="error" title="Could not sign in">
            <p>{error}</p>
          </Notice>
        ) : null}
      </div>
    </div>
  );
}
