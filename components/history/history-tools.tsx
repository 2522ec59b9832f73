"use client";

import { useRouter } from "next/navigation";
import { useTransition, type FormEvent } from "react";
import type { FieldErrors } from "@/lib/domain/api-error";
import { fieldErrors } from "@/lib/domain/inputs/field-errors";
import { capHint, fieldMessage } from "@/lib/domain/inputs/field-message";
import { CONTAINS_MAX, QUESTION_LABELS } from "@/lib/domain/inputs/history-filters";
import { historyQuestionSchema } from "@/lib/domain/inputs/history-question";
import { isHistoryView, webhookViewHref } from "@/lib/domain/log-view";
import { ExportButtons } from "@/components/history/export-buttons";
import { useFilterRefusal } from "@/components/history/filter-refusal";
import {
  HISTORY_FILTERS,
  NO_HISTORY_FILTERS,
  type HistoryFilter,
  type LogViewState,
} from "@/lib/domain/search-params";
import { Field } from "@/components/ui/field";

const QUICK_PICKS = [
  { label: "Last hour", ms: 3_600_000 },
  { label: "Last 24 h", ms: 86_400_000 },
  { label: "Last 7 days", ms: 7 * 86_400_000 },
] as const;

const TIME_FIELDS = [
  ["since", "Since"],
  ["until", "Until"],
] as const;

/** `2026-01-02T03:04` in the viewer's time zone, for a datetime-local input; "" when unreadable. */
function toLocalInput(iso: string | null): string {
  const time = iso ? Date.parse(iso) : NaN;
  if (!Number.isFinite(time)) return iso ?? "";
  const date = new Date(time - new Date(time).getTimezoneOffset() * 60_000);
  return date.toISOString().slice(0, 16);
}

/** A datetime-local value (viewer's time zone) as ISO UTC; as typed when unreadable. */
function fromLocalInput(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  const time = Date.parse(trimmed);
  return Number.isFinite(time) ? new Date(time).toISOString() : trimmed;
}

/** The filters as typed in the form: text trimmed, times from the viewer's zone to ISO UTC. */
function typedFilters(form: HTMLFormElement): Record<HistoryFilter, string | null> {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? "").trim() || null;
  return {
    code: text("code"),
    since: fromLocalInput(String(data.get("since") ?? "")),
    until: fromLocalInput(String(data.get("until") ?? "")),
    contains: text("contains"),
  };
}

/**
 * Since or Until half typed (a date without its time, say): the browser reports such a field as
 * empty, which would drop its filter without a word.
 */
function halfTypedTimes(form: HTMLFormElement): FieldErrors | null {
  const errors: FieldErrors = {};
  for (const [name, label] of TIME_FIELDS) {
    const input = form.elements.namedItem(name);
    if (input instanceof HTMLInputElement && input.validity.badInput)
      errors[name] = [fieldMessage(label, "finish the date and time, or clear the field.")];
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/**
 * Filters over the whole history and Export, in their own chunk. The filters live in the URL; Apply
 * checks them with the history route's own parser, so what it refuses never leaves the browser:
 * the refusal is said by field, and the table shows no rows as its answer (filter-refusal.tsx).
 */
export default function HistoryTools({ webhookId, view }: { webhookId: string; view: LogViewState }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const { refused, refuse } = useFilterRefusal();
  const refuseFields = (errors: FieldErrors) =>
    refuse({
      errors,
      labels: Object.keys(errors).map(
        (name) => QUESTION_LABELS[name as keyof typeof QUESTION_LABELS] ?? name,
      ),
    });
  const go = (state: Partial<LogViewState>) =>
    startTransition(() =>
      router.push(webhookViewHref(webhookId, { ...view, ...state, page: 1, log: null }), { scroll: false }),
    );

  function apply(filters: Record<HistoryFilter, string | null>) {
    const parsed = historyQuestionSchema.safeParse({
      status: view.status ?? undefined,
      ...Object.fromEntries(HISTORY_FILTERS.map((name) => [name, filters[name] ?? undefined])),
    });
    if (!parsed.success) {
      refuseFields(fieldErrors(parsed.error));
      return;
    }
    refuse(null);
    go({ ...filters, cap: null });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const halfTyped = halfTypedTimes(event.currentTarget);
    if (halfTyped) refuseFields(halfTyped);
    else apply(typedFilters(event.currentTarget));
  }

  // Each message already names its field by its label.
  const error = (name: string) => refused?.errors[name]?.join(" ");

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Filter the whole history"
      className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-4"
    >
      <Field
        label="HTTP status"
        hint="A code (500), a class (4xx) or 0 for No connection."
        error={error("code")}
      >
        {(control) => (
          <input
            {...control}
            name="code"
            defaultValue={view.code ?? ""}
            list="history-codes"
            autoComplete="off"
            className="field-input"
          />
        )}
      </Field>
      {TIME_FIELDS.map(([name, label]) => (
        <Field key={name} label={label} error={error(name)}>
          {(control) => (
            <input
              {...control}
              name={name}
              type="datetime-local"
              defaultValue={toLocalInput(view[name])}
              className="field-input"
            />
          )}
        </Field>
      ))}
      <Field
        label="Response contains"
        hint={`Text in the response body, any case. ${capHint(CONTAINS_MAX)}`}
        error={error("contains")}
      >
        {(control) => (
          <input
            {...control}
            name="contains"
            defaultValue={view.contains ?? ""}
            autoComplete="off"
            className="field-input"
          />
        )}
      </Field>
      <datalist id="history-codes">
        <option value="0">No connection</option>
        <option value="5xx" />
        <option value="4xx" />
        <option value="500" />
        <option value="401" />
        <option value="404" />
      </datalist>
      <div className="flex flex-wrap items-center gap-2 sm:col-span-2 lg:col-span-4">
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? "Applying…" : "Apply filters"}
        </button>
        {QUICK_PICKS.map((pick) => (
          <button
            key={pick.label}
            type="button"
            className="btn btn-small"
            // A quick pick sets the time range only: the other filters are taken as typed.
            onClick={(event) =>
              apply({
                ...typedFilters(event.currentTarget.form!),
                since: new Date(Date.now() - pick.ms).toISOString(),
                until: null,
              })
            }
          >
            {pick.label}
          </button>
        ))}
        {isHistoryView(view) ? (
          <button type="button" className="btn btn-secondary" onClick={() => go(NO_HISTORY_FILTERS)}>
            Clear filters
          </button>
        ) : null}
        <ExportButtons webhookId={webhookId} view={view} />
      </div>
    </form>
  );
}
