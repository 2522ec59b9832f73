"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { RuleSettings } from "@/lib/domain/alerts/rules";
import { RULE_KEYS, ruleSummary, type RuleKey } from "@/lib/domain/alerts/rule-text";
import { SNOOZE_CHOICES, SNOOZE_CHOICE_NAMES, UNTIL_TURNED_ON } from "@/lib/domain/alerts/snooze";
import type { WebhookAlertSettings } from "@/lib/domain/alerts/webhook-alert-settings";
import { firstErrors } from "@/lib/domain/inputs/field-errors";
import { RULE_LABELS, webhookAlertSettingsSchema, type SnoozeInput } from "@/lib/domain/inputs/alert-rules";
import { ErrorSummary } from "@/components/ui/error-summary";
import { Field } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { browserZone, TimeZoneSelect } from "@/components/ui/time-zone-select";
import { RuleControls, ruleFromForm, ruleTitle } from "@/components/alerts/rule-fields";
import { apiFieldErrors } from "@/components/alerts/rules-form";
import { changeWebhookAlerts, fetchWebhookAlerts, ruleKeys } from "@/components/alerts/alerts-api";

const PREFIX = "rules.";

/**
 * "Alerts for this webhook", on a watched webhook's page: snooze, and its own rules and quiet
 * hours (each rule follows the application's unless a person gives it its own values).
 */
export function WebhookAlerts({ webhookId }: { webhookId: string }) {
  const queryClient = useQueryClient();
  const { data, error } = useQuery({
    queryKey: ruleKeys.webhook(webhookId),
    queryFn: ({ signal }) => fetchWebhookAlerts(webhookId, signal),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: (input: Parameters<typeof changeWebhookAlerts>[1]) => changeWebhookAlerts(webhookId, input),
    onSuccess: (saved) => queryClient.setQueryData(ruleKeys.webhook(webhookId), saved),
    onError: (caught) => setErrors(apiFieldErrors(caught) ?? {}),
  });

  function run(input: Parameters<typeof changeWebhookAlerts>[1], doneText: string) {
    setDone(null);
    change.mutate(input, { onSuccess: () => setDone(doneText) });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const own = RULE_KEYS.filter((key) => !form.has(`use.${key}`));
    const parsed = webhookAlertSettingsSchema.safeParse({
      rules: Object.fromEntries(own.map((key) => [key, ruleFromForm(form, key, PREFIX)])),
      quietHours: form.has("quiet")
        ? {
            start: String(form.get("quietHours.start") ?? ""),
            end: String(form.get("quietHours.end") ?? ""),
            zone: String(form.get("quietHours.zone") ?? ""),
          }
        : null,
    });
    change.reset();
    if (!parsed.success) return setErrors(firstErrors(parsed.error));
    setErrors({});
    run(parsed.data, "Alert settings saved.");
  }

  if (error)
    return (
      <p className="text-sm text-amber-900 dark:text-amber-200">
        Alert settings are unavailable: {error.message}
      </p>
    );
  if (!data) return <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading alert settings…</p>;

  const formError = change.error && !apiFieldErrors(change.error) ? change.error.message : null;
  return (
    <section aria-labelledby="webhook-alerts-heading" className="space-y-3">
      <h2 id="webhook-alerts-heading" className="text-sm font-semibold">
        Alerts for this webhook
      </h2>
      <Snooze
        snoozedUntil={data.override.snoozedUntil}
        pending={change.isPending}
        onSnooze={(snooze, text) => run({ snooze }, text)}
      />
      <SettingsForm
        key={JSON.stringify([data.application, data.override.rules, data.override.quietHours])}
        data={data}
        errors={errors}
        pending={change.isPending}
        onSubmit={onSubmit}
      />
      <p role="status" className="text-sm">
        {formError ? <span className="text-red-800 dark:text-red-300">{formError}</span> : done}
      </p>
    </section>
  );
}

function Snooze({
  snoozedUntil,
  pending,
  onSnooze,
}: {
  snoozedUntil: string | null;
  pending: boolean;
  onSnooze: (snooze: SnoozeInput, done: string) => void;
}) {
  const [choice, setChoice] = useState<SnoozeInput>("1h");
  if (snoozedUntil)
    return (
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span className="font-medium text-amber-900 dark:text-amber-200">
          Snoozed until{" "}
          {snoozedUntil === UNTIL_TURNED_ON ? (
            "you turn alerts back on"
          ) : (
            <LocalTime iso={snoozedUntil} form="short" />
          )}
        </span>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={pending}
          onClick={() => onSnooze("off", "Alerts are on again.")}
        >
          Turn alerts back on
        </button>
      </p>
    );
  return (
    <div className="flex flex-wrap items-end gap-x-3 gap-y-2">
      <Field label={RULE_LABELS.snooze} hint="Holds this webhook's alerts for a while.">
        {(control) => (
          <select
            {...control}
            name="snooze"
            value={choice}
            onChange={(event) => setChoice(event.target.value as SnoozeInput)}
            className="field-select"
          >
            {SNOOZE_CHOICES.map((value) => (
              <option key={value} value={value}>
                {SNOOZE_CHOICE_NAMES[value]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button
        type="button"
        className="btn btn-secondary mb-5"
        disabled={pending}
        onClick={() => onSnooze(choice, "Alerts snoozed.")}
      >
        Snooze alerts
      </button>
    </div>
  );
}

function SettingsForm({
  data,
  errors,
  pending,
  onSubmit,
}: {
  data: WebhookAlertSettings;
  errors: Record<string, string>;
  pending: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const ownCount = Object.keys(data.override.rules).length;
  const quiet = data.override.quietHours;
  const [quietOn, setQuietOn] = useState(quiet !== null);
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Alert settings" className="space-y-3">
      <ErrorSummary errors={errors} title="The alert settings were not saved" />
      <details className="text-sm" open={Object.keys(errors).some((name) => name.startsWith(PREFIX))}>
        <summary className="w-fit cursor-pointer rounded-sm font-medium text-blue-700 select-none dark:text-blue-400">
          Rules{" "}
          <span className="text-xs font-normal text-zinc-600 dark:text-zinc-400">
            ({ownCount === 0 ? "the application's" : `${ownCount} of its own`})
          </span>
        </summary>
        <div className="mt-2 space-y-2">
          {RULE_KEYS.map((key) => (
            <OwnRule key={key} ruleKey={key} data={data} errors={errors} />
          ))}
        </div>
      </details>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Quiet hours</legend>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name="quiet"
            checked={quietOn}
            onChange={(event) => setQuietOn(event.target.checked)}
            className="size-4"
          />
          Hold alerts every day between these times
        </label>
        {quietOn ? <QuietHoursFields quiet={quiet} errors={errors} /> : null}
      </fieldset>
      <button type="submit" className="btn btn-secondary" disabled={pending}>
        Save alert settings
      </button>
    </form>
  );
}

function OwnRule({
  ruleKey,
  data,
  errors,
}: {
  ruleKey: RuleKey;
  data: WebhookAlertSettings;
  errors: Record<string, string>;
}) {
  const [useApp, setUseApp] = useState(!(ruleKey in data.override.rules));
  const values: RuleSettings = data.rules;
  return (
    <fieldset className="rounded-md border border-zinc-200 p-2 dark:border-zinc-800">
      <legend className="px-1 text-sm font-semibold">{ruleTitle(ruleKey)}</legend>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          name={`use.${ruleKey}`}
          checked={useApp}
          onChange={(event) => setUseApp(event.target.checked)}
          className="size-4"
        />
        Use the application&apos;s rules
      </label>
      {useApp ? (
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          The application&apos;s: {ruleSummary(data.application, ruleKey)}.
        </p>
      ) : (
        <div className="mt-2">
          <RuleControls
            ruleKey={ruleKey}
            values={values}
            defaults={data.application}
            errors={errors}
            prefix={PREFIX}
          />
        </div>
      )}
    </fieldset>
  );
}

function QuietHoursFields({
  quiet,
  errors,
}: {
  quiet: WebhookAlertSettings["override"]["quietHours"];
  errors: Record<string, string>;
}) {
  const zone = quiet?.zone ?? browserZone();
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      {(["quietHours.start", "quietHours.end"] as const).map((name, index) => (
        <Field key={name} label={RULE_LABELS[name]} error={errors[name] ?? null}>
          {(control) => (
            <input
              {...control}
              name={name}
              type="time"
              defaultValue={(index === 0 ? quiet?.start : quiet?.end) ?? (index === 0 ? "22:00" : "07:00")}
              className="field-input"
            />
          )}
        </Field>
      ))}
      <Field label={RULE_LABELS["quietHours.zone"]} error={errors["quietHours.zone"] ?? null}>
        {(control) => <TimeZoneSelect control={control} name="quietHours.zone" zone={zone} />}
      </Field>
    </div>
  );
}
