import type { RuleSettings } from "@/lib/domain/alerts/rules";
import {
  RULE_NUMBER_FIELDS,
  ruleNumber,
  type RuleKey,
  type RuleNumberField,
} from "@/lib/domain/alerts/rule-text";
import { RULE_LABELS, RULE_NAMES, rangeText } from "@/lib/domain/inputs/alert-rules";
import { Field } from "@/components/ui/field";

/**
 * One rule's controls, shared by the Alerts page's defaults and a webhook's own rules: its
 * on/off switch and number fields, named by their path under `prefix` ("rules." on a webhook's
 * page), so `ruleFromForm` reads them back and errors (keyed the same way) land beside each.
 */

export function RuleControls({
  ruleKey,
  values,
  defaults,
  errors,
  prefix = "",
}: {
  ruleKey: RuleKey;
  values: RuleSettings;
  /** Shown in each hint ("Default 5."), when given. */
  defaults?: RuleSettings;
  errors: Record<string, string>;
  prefix?: string;
}) {
  const fields: readonly RuleNumberField[] = RULE_NUMBER_FIELDS[ruleKey];
  return (
    <div className="space-y-2">
      {ruleKey === "cooldownMinutes" ? null : (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name={`${prefix}${ruleKey}.enabled`}
            defaultChecked={values[ruleKey].enabled}
            className="size-4"
          />
          Alert on this
        </label>
      )}
      {fields.length > 0 ? (
        <div className="grid gap-3 sm:grid-cols-3">
          {fields.map((field) => (
            <Field
              key={field}
              label={RULE_LABELS[field]}
              hint={`${defaults ? `Default ${ruleNumber(defaults, field)}. ` : ""}${capitalized(rangeText(field))}.`}
              error={errors[`${prefix}${field}`] ?? null}
            >
              {(control) => (
                <input
                  {...control}
                  name={`${prefix}${field}`}
                  type="text"
                  inputMode="numeric"
                  autoComplete="off"
                  defaultValue={ruleNumber(values, field)}
                  className="field-input tabular-nums"
                />
              )}
            </Field>
          ))}
        </div>
      ) : null}
    </div>
  );
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The heading of a rule's group. */
export function ruleTitle(key: RuleKey): string {
  return key === "cooldownMinutes" ? "Cooldown" : RULE_NAMES[key];
}

/** One rule as the form holds it (text as typed; the input schema reads it). */
export function ruleFromForm(data: FormData, key: RuleKey, prefix = ""): unknown {
  const text = (field: string) => String(data.get(`${prefix}${field}`) ?? "");
  if (key === "cooldownMinutes") return text("cooldownMinutes");
  const rule: Record<string, unknown> = { enabled: data.has(`${prefix}${key}.enabled`) };
  for (const field of RULE_NUMBER_FIELDS[key] as readonly string[]) rule[field.split(".")[1]!] = text(field);
  return rule;
}
