"use client";

import Link from "next/link";
import { useRef, useState, type FormEvent } from "react";
import { ApiError, apiRequest } from "@/lib/browser/api";
import type { ApplicationSummary } from "@/lib/domain/applications";
import { webhookViewHref } from "@/lib/domain/log-view";
import { BULK_LINES_MAX, bulkSummary, type BulkOutcome } from "@/lib/domain/watch/bulk-input";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";

const STATUS_TEXT: Record<BulkOutcome["status"], string> = {
  watched: "Watched",
  already: "Already watched",
  refused: "Refused",
};

/**
 * Watch many webhooks at once: IDs one per line, or a CSV of id,name (pasted, or read from a
 * file), under one application. Each line is checked with the hub; the answer says what became of
 * each line, and the refused ones stay in the box to correct.
 */
export function BulkWatchForm({
  applications,
  initialApp,
}: {
  applications: ApplicationSummary[];
  initialApp: string;
}) {
  const text = useRef<HTMLTextAreaElement>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ field: boolean; text: string } | null>(null);
  const [outcomes, setOutcomes] = useState<BulkOutcome[] | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const pasted = String(form.get("text") ?? "");
    const app = String(form.get("app") ?? initialApp);
    if (!pasted.trim())
      return setError({ field: true, text: "Webhook IDs are required: paste one ID per line, or id,name." });
    setPending(true);
    setError(null);
    try {
      const answer = await apiRequest<{ outcomes: BulkOutcome[] }>(
        `/api/watches/bulk?app=${encodeURIComponent(app)}`,
        {
          method: "POST",
          body: { text: pasted },
        },
      );
      setOutcomes(answer.outcomes);
      // What was refused stays, to correct and send again.
      const refused = new Set(answer.outcomes.filter((o) => o.status === "refused").map((o) => o.line));
      text.current!.value = pasted
        .split(/\r?\n/)
        .filter((_, index) => refused.has(index + 1))
        .join("\n");
    } catch (caught) {
      const apiError = caught instanceof ApiError ? caught : null;
      const fieldText = apiError?.fields?.text?.[0];
      setError({
        field: Boolean(fieldText),
        text: fieldText ?? apiError?.message ?? "The webhooks could not be watched. Try again.",
      });
    } finally {
      setPending(false);
    }
  }

  async function onFile(file: File | undefined) {
    if (file) text.current!.value = await file.text();
  }

  const kept = outcomes ? outcomes.some((o) => o.status !== "refused") : false;
  const appName = (id?: string) => applications.find((app) => app.id === id)?.name;

  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} noValidate className="card space-y-3 p-4">
        {applications.length > 1 ? (
          <div className="space-y-1">
            <label htmlFor="watch-app" className="field-label">
              Application
            </label>
            <select id="watch-app" name="app" defaultValue={initialApp} className="field-select">
              {applications.map((app) => (
                <option key={app.id} value={app.id}>
                  {app.name}
                </option>
              ))}
            </select>
            <p className="field-hint">The webhooks are read with this application&apos;s key.</p>
          </div>
        ) : null}
        <Field
          label="Webhook IDs"
          hint={`One ID per line, or a CSV of id,name (a name with a comma in quotes). At most ${BULK_LINES_MAX} lines.`}
          error={error?.field ? error.text : null}
        >
          {(control) => (
            <textarea
              {...control}
              ref={text}
              name="text"
              rows={8}
              spellCheck={false}
              autoComplete="off"
              className="field-input font-mono"
            />
          )}
        </Field>
        <Field
          label="Or read a CSV file"
          hint="Its lines go into the box above, to check before you watch them."
        >
          {(control) => (
            <input
              {...control}
              type="file"
              accept=".csv,.txt,text/csv,text/plain"
              onChange={(event) => void onFile(event.target.files?.[0])}
              className="block text-sm"
            />
          )}
        </Field>
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? "Checking with the hub…" : "Watch webhooks"}
        </button>
        <div aria-live="assertive">
          {error && !error.field ? (
            <Notice tone="error" title="Nothing was watched">
              <p>{error.text}</p>
            </Notice>
          ) : null}
        </div>
      </form>

      <section aria-labelledby="watch-results-heading" aria-live="polite">
        {outcomes ? (
          <div className="card space-y-2 p-4">
            <h2 id="watch-results-heading" className="text-sm font-semibold">
              {bulkSummary(outcomes)}
            </h2>
            <ul className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
              {outcomes.map((outcome) => (
                <li key={outcome.line} className="flex flex-wrap gap-x-3 gap-y-0.5 py-2">
                  <span className="text-zinc-600 tabular-nums dark:text-zinc-400">Line {outcome.line}</span>
                  <span
                    className={`font-semibold ${outcome.status === "refused" ? "text-red-800 dark:text-red-300" : "text-emerald-800 dark:text-emerald-300"}`}
                  >
                    {STATUS_TEXT[outcome.status]}
                  </span>
                  {outcome.webhookId && outcome.appId ? (
                    <Link
                      href={webhookViewHref(outcome.webhookId, { app: outcome.appId })}
                      className="btn-link font-mono text-xs break-all"
                    >
                      {outcome.webhookId}
                    </Link>
                  ) : (
                    <span className="font-mono text-xs break-all">{outcome.text}</span>
                  )}
                  <span className="w-full">
                    {outcome.message}
                    {outcome.status !== "refused" && appName(outcome.appId)
                      ? ` (${appName(outcome.appId)})`
                      : ""}
                  </span>
                </li>
              ))}
            </ul>
            {kept ? (
              <Link href="/overview" className="btn-link text-sm">
                Open the overview
              </Link>
            ) : null}
          </div>
        ) : null}
      </section>
    </div>
  );
}
