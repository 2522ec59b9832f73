"use client";

import { useId, useState, useTransition, type FormEvent } from "react";
import { apiRequest } from "@/lib/browser/api";
import { capHint } from "@/lib/domain/inputs/field-message";
import { FIND_INPUT_MAX } from "@/lib/domain/api-limits";
import { FIND_ACROSS_LABEL, type FindAcrossAnswer } from "@/lib/domain/watch/find-across";

/** The header's Find box: `/` focuses it on the overview (see TriageKeys). */
export const FIND_ACROSS_INPUT_ID = "find-across";

/**
 * Find across everything, in the header: a message ID, a log ID or a console link, looked up in
 * every watched webhook of every application in the session, then opened under its own
 * application (a full page load: the header is the layout's, and may have to name another one).
 * Plain React state: the header is on every page's first load, and needs no query cache.
 */
export function FindAcrossBox() {
  const errorId = useId();
  const hintId = useId();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = new FormData(event.currentTarget).get("q");
    setError(null);
    startTransition(async () => {
      try {
        const answer = await apiRequest<FindAcrossAnswer>(
          `/api/watches/find?${new URLSearchParams({ q: typeof q === "string" ? q : "" })}`,
        );
        window.location.assign(answer.href);
      } catch (failure) {
        setError(failure instanceof Error ? failure.message : String(failure));
      }
    });
  }

  return (
    <form
      role="search"
      aria-label={FIND_ACROSS_LABEL}
      onSubmit={onSubmit}
      className="flex flex-wrap items-center gap-x-1.5 gap-y-1 max-sm:w-full"
    >
      <label htmlFor={FIND_ACROSS_INPUT_ID} className="sr-only">
        {FIND_ACROSS_LABEL}
      </label>
      <input
        id={FIND_ACROSS_INPUT_ID}
        name="q"
        type="search"
        autoComplete="off"
        spellCheck={false}
        placeholder="Message ID, log ID or link"
        aria-keyshortcuts="/"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${errorId} ${hintId}` : hintId}
        onChange={() => setError(null)}
        className="peer field-input h-8 w-60 py-1 font-mono text-xs max-sm:min-w-0 max-sm:flex-1"
      />
      <button type="submit" className="btn btn-small" disabled={pending} aria-busy={pending}>
        {pending ? "Finding…" : "Find"}
      </button>
      {error ? (
        <p id={errorId} role="alert" className="field-error w-full max-w-xl">
          {error}
        </p>
      ) : null}
      {/* Shown while the box has focus: the header stays one line the rest of the time. */}
      <p id={hintId} className="field-hint sr-only peer-focus:not-sr-only peer-focus:w-full">
        {capHint(FIND_INPUT_MAX)}
      </p>
    </form>
  );
}
