"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { firstErrors } from "@/lib/domain/inputs/field-errors";
import { capHint } from "@/lib/domain/inputs/field-message";
import {
  MAINTENANCE_LABELS,
  MAINTENANCE_NOTE_MAX,
  maintenanceWindowSchema,
} from "@/lib/domain/inputs/maintenance";
import { scheduleText, type MaintenanceWindowView } from "@/lib/domain/maintenance/view";
import { WEEKDAYS, WEEKDAY_NAMES, WEEKLY_MAX_MINUTES } from "@/lib/domain/maintenance/windows";
import { ErrorSummary } from "@/components/ui/error-summary";
import { Field } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { browserZone, TimeZoneSelect } from "@/components/ui/time-zone-select";
import { Notice } from "@/components/ui/notice";
import { apiFieldErrors } from "@/components/alerts/rules-form";
import {
  addWindow,
  fetchWindows,
  maintenanceKeys,
  removeWindow,
} from "@/components/maintenance/maintenance-api";

const MUTED = "text-xs text-zinc-600 dark:text-zinc-400";

const WEBHOOK_INTRO =
  "Set one ahead of a planned deploy: while it is on, this webhook's alerts hold (an incident still failing " +
  "when it ends is sent then) and its failures are counted apart, not as failing. It ends by itself.";
const APPLICATION_INTRO =
  "A window here covers every watched webhook of this application: while it is on, their alerts hold and " +
  "their failures are counted apart. A webhook's own windows are set on its page.";

/** The window the soonest to matter: the one on now, else the next to start. */
function soonest(windows: readonly MaintenanceWindowView[]): MaintenanceWindowView | null {
  const key = (w: MaintenanceWindowView) =>
    w.current ? `0${w.current.start}` : `1${w.next?.start ?? "\uffff"}`;
  return [...windows].sort((a, b) => key(a).localeCompare(key(b)))[0] ?? null;
}

/**
 * "Maintenance windows": a webhook's (`webhookId`, on its settings: its own and its
 * application's) or an application's (null, on the Alerts page: every window of it, the new one
 * on the whole application). While a window is on, alerts hold and failures are counted apart;
 * it ends by itself. Says when the next one is, lists each with Remove, and adds one (the same
 * schema as the route checks it first; the server's refusals show beside the field they name).
 */
export function MaintenanceSection({ webhookId }: { webhookId: string | null }) {
  const queryClient = useQueryClient();
  const windows = useQuery({
    queryKey: maintenanceKeys.of(webhookId),
    queryFn: ({ signal }) => fetchWindows(webhookId, signal),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: maintenanceKeys.all });
  const remove = useMutation({ mutationFn: removeWindow, onSuccess: refresh });
  const headingId = `maintenance-heading-${webhookId ?? "application"}`;
  const first = windows.data ? soonest(windows.data) : null;

  return (
    <section aria-labelledby={headingId} className="card space-y-3 p-4">
      <h2 id={headingId} className="text-base font-semibold">
        Maintenance windows
      </h2>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {webhookId ? WEBHOOK_INTRO : APPLICATION_INTRO}
      </p>
      {windows.error ? (
        <Notice tone="error" title="The maintenance windows could not be read">
          <p>{windows.error.message}</p>
        </Notice>
      ) : windows.isPending ? (
        <p className={MUTED}>Reading the maintenance windows…</p>
      ) : (
        <>
          <p role="status" className="text-sm font-medium">
            {!first ? (
              "No maintenance window is set."
            ) : first.current ? (
              <>
                In maintenance until <LocalTime iso={first.current.end} form="short" />.
              </>
            ) : (
              <>
                Next maintenance window: <LocalTime iso={first.next!.start} /> to{" "}
                <LocalTime iso={first.next!.end} form="short" />.
              </>
            )}
          </p>
          {windows.data.length > 0 ? (
            <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {windows.data.map((window) => (
                <WindowItem
                  key={window.id}
                  window={window}
                  forWebhook={webhookId !== null}
                  removing={remove.isPending}
                  onRemove={() => remove.mutate(window.id)}
                />
              ))}
            </ul>
          ) : null}
          {remove.error ? (
            <p className="text-sm text-red-800 dark:text-red-300">{remove.error.message}</p>
          ) : null}
        </>
      )}
      <WindowForm webhookId={webhookId} onAdded={refresh} />
    </section>
  );
}

function WindowItem({
  window,
  forWebhook,
  removing,
  onRemove,
}: {
  window: MaintenanceWindowView;
  forWebhook: boolean;
  removing: boolean;
  onRemove: () => void;
}) {
  const scope =
    window.webhookId === null
      ? "Whole application"
      : forWebhook
        ? "This webhook"
        : (window.webhookName ?? window.webhookId);
  const span = window.current ?? window.next;
  return (
    <li className="flex flex-wrap items-start justify-between gap-2 py-2 text-sm">
      <div>
        <p className="font-medium">
          {scope} · {scheduleText(window.schedule)}
        </p>
        {span ? (
          <p className={window.current ? "font-semibold text-amber-900 dark:text-amber-200" : MUTED}>
            {window.current ? "On now: " : "Next: "}
            <LocalTime iso={span.start} /> to <LocalTime iso={span.end} form="short" />
          </p>
        ) : null}
        {window.note ? <p className={MUTED}>{window.note}</p> : null}
      </div>
      <button type="button" className="btn btn-secondary btn-small" disabled={removing} onClick={onRemove}>
        Remove
      </button>
    </li>
  );
}

function WindowForm({ webhookId, onAdded }: { webhookId: string | null; onAdded: () => void }) {
  const [repeats, setRepeats] = useState<"once" | "weekly">("once");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const add = useMutation({
    mutationFn: addWindow,
    onSuccess: onAdded,
    onError: (caught) => setErrors(apiFieldErrors(caught) ?? {}),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? "");
    const common = { webhookId, repeats, zone: text("zone"), note: text("note") };
    const input =
      repeats === "once"
        ? { ...common, start: text("start"), end: text("end") }
        : {
            ...common,
            days: data.getAll("days").map(String),
            start: text("start"),
            durationMinutes: text("durationMinutes"),
          };
    const parsed = maintenanceWindowSchema.safeParse(input);
    add.reset();
    if (!parsed.success) return setErrors(firstErrors(parsed.error));
    setErrors({});
    add.mutate(parsed.data, { onSuccess: () => form.reset() });
  }

  const error = (name: string) => errors[name] ?? null;
  const formError = add.error && !apiFieldErrors(add.error) ? add.error.message : null;
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Add a maintenance window"
      className="space-y-3 border-t border-zinc-200 pt-3 dark:border-zinc-800"
    >
      <h3 className="text-sm font-semibold">
        {webhookId ? "Add a window" : "Add a window on the whole application"}
      </h3>
      <ErrorSummary errors={errors} title="The window was not added" />
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="field-label">{MAINTENANCE_LABELS.repeats}</legend>
        {(["once", "weekly"] as const).map((value) => (
          <label key={value} className="flex items-center gap-2">
            <input
              type="radio"
              name="repeats"
              value={value}
              checked={repeats === value}
              onChange={() => {
                setRepeats(value);
                setErrors({});
              }}
            />
            {value === "once" ? "Once" : "Every week"}
          </label>
        ))}
      </fieldset>
      {repeats === "once" ? (
        <div className="grid gap-3 sm:grid-cols-2">
          {(["start", "end"] as const).map((name) => (
            <Field key={name} label={MAINTENANCE_LABELS[`once.${name}`]} error={error(name)}>
              {(control) => <input {...control} name={name} type="datetime-local" className="field-input" />}
            </Field>
          ))}
        </div>
      ) : (
        <>
          <fieldset
            aria-describedby={error("days") ? "maintenance-days-error" : undefined}
            aria-invalid={error("days") ? true : undefined}
          >
            <legend className="field-label">{MAINTENANCE_LABELS.days}</legend>
            <div className="mt-1 flex flex-wrap gap-3 text-sm">
              {WEEKDAYS.map((day) => (
                <label key={day} className="flex items-center gap-1">
                  <input type="checkbox" name="days" value={day} className="size-4" />
                  {WEEKDAY_NAMES[day]}
                </label>
              ))}
            </div>
            {error("days") ? (
              <p id="maintenance-days-error" className="field-error">
                {error("days")}
              </p>
            ) : null}
          </fieldset>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label={MAINTENANCE_LABELS["weekly.start"]} error={error("start")}>
              {(control) => (
                <input {...control} name="start" type="time" defaultValue="14:00" className="field-input" />
              )}
            </Field>
            <Field
              label={MAINTENANCE_LABELS.durationMinutes}
              hint={`1 to ${WEEKLY_MAX_MINUTES} (a day).`}
              error={error("durationMinutes")}
            >
              {(control) => (
                <input
                  {...control}
                  name="durationMinutes"
                  type="number"
                  min={1}
                  max={WEEKLY_MAX_MINUTES}
                  defaultValue={60}
                  className="field-input"
                />
              )}
            </Field>
          </div>
        </>
      )}
      <Field
        label={MAINTENANCE_LABELS.zone}
        hint="Its times are read in this zone, summer time included."
        error={error("zone")}
      >
        {(control) => <TimeZoneSelect control={control} name="zone" zone={browserZone()} />}
      </Field>
      <Field
        label={MAINTENANCE_LABELS.note}
        hint={`What it is for, e.g. Deploy of v2.3. ${capHint(MAINTENANCE_NOTE_MAX)}`}
        error={error("note")}
      >
        {(control) => (
          <input {...control} name="note" type="text" autoComplete="off" className="field-input" />
        )}
      </Field>
      <button type="submit" className="btn btn-primary" disabled={add.isPending}>
        {add.isPending ? "Adding…" : "Add window"}
      </button>
      <div aria-live="polite">
        {formError ? (
          <Notice tone="error" title="The window was not added">
            <p>{formError}</p>
          </Notice>
        ) : add.data ? (
          <p className="text-sm">Window added.</p>
        ) : null}
      </div>
    </form>
  );
}
