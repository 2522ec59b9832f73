"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { isApiError } from "@/lib/browser/api";
import { DEFAULT_RULES, type RuleSettings } from "@/lib/domain/alerts/rules";
import { RULE_KEYS } from "@/lib/domain/alerts/rule-text";
import { firstErrors } from "@/lib/domain/inputs/field-errors";
import { ruleSettingsSchema } from "@/lib/domain/inputs/alert-rules";
import { ErrorSummary } from "@/components/ui/error-summary";
import { Notice } from "@/components/ui/notice";
import { RuleControls, ruleFromForm, ruleTitle } from "@/components/alerts/rule-fields";
import { fetchRules, ruleKeys, saveRules } from "@/components/alerts/alerts-api";

/** The first message of each field of an API refusal. */
export function apiFieldErrors(error: unknown): Record<string, string> | null {
  const fields = isApiError(error) ? error.fields : null;
  return fields ? Object.fromEntries(Object.entries(fields).map(([name, [first]]) => [name, first!])) : null;
}

/**
 * "Rules" on the Alerts page: when the application's watched webhooks alert, unless a webhook
 * sets its own. The same schema as the route checks the form first; nothing is saved while any
 * field is refused.
 */
export function RulesForm() {
  const queryClient = useQueryClient();
  const { data: rules, error } = useQuery({
    queryKey: ruleKeys.application,
    queryFn: ({ signal }) => fetchRules(signal),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: saveRules,
    onSuccess: (saved) => {
      queryClient.setQueryData(ruleKeys.application, saved);
      void queryClient.invalidateQueries({ queryKey: ruleKeys.application });
    },
    onError: (caught) => setErrors(apiFieldErrors(caught) ?? {}),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = ruleSettingsSchema.safeParse(
      Object.fromEntries(RULE_KEYS.map((key) => [key, ruleFromForm(data, key)])),
    );
    save.reset();
    if (!parsed.success) return setErrors(firstErrors(parsed.error));
    setErrors({});
    save.mutate(parsed.data);
  }

  const formError = save.error && !apiFieldErrors(save.error) ? save.error.message : null;

  return (
    <section className="card space-y-3 p-4" aria-labelledby="rules-heading">
      <div>
        <h2 id="rules-heading" className="text-base font-semibold">
          Rules
        </h2>
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
          When a watched webhook alerts. Every webhook of this application follows these, unless its own page
          sets its own values, snoozes it or gives it quiet hours.
        </p>
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
          A webhook has one incident at a time, listing every rule that holds on it: one alert when it starts,
          another only when it gets worse (a rule joins, or the streak reaches 10 times its minimum), and one
          when it recovers, once it delivers again.
        </p>
      </div>
      {error ? (
        <Notice tone="error" title="The rules could not be read">
          <p>{error.message}</p>
        </Notice>
      ) : !rules ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading the rules…</p>
      ) : (
        <RulesFields
          key={JSON.stringify(rules)}
          rules={rules}
          errors={errors}
          pending={save.isPending}
          onSubmit={onSubmit}
        />
      )}
      <div aria-live="polite">
        {formError ? (
          <Notice tone="error" title="The rules were not saved">
            <p>{formError}</p>
          </Notice>
        ) : null}
        {save.isSuccess ? <Notice tone="success" title="Rules saved" /> : null}
      </div>
    </section>
  );
}

function RulesFields({
  rules,
  errors,
  pending,
  onSubmit,
}: {
  rules: RuleSettings;
  errors: Record<string, string>;
  pending: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Rules" className="space-y-3">
      <ErrorSummary errors={errors} title="The rules were not saved" />
      {RULE_KEYS.map((key) => (
        <fieldset key={key} className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
          <legend className="px-1 text-sm font-semibold">{ruleTitle(key)}</legend>
          <RuleControls ruleKey={key} values={rules} defaults={DEFAULT_RULES} errors={errors} />
        </fieldset>
      ))}
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {pending ? "Saving…" : "Save rules"}
      </button>
    </form>
  );
}
