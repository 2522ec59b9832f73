import { z } from "zod/mini";
import type { RuleId, RuleSettings } from "@/lib/domain/alerts/rules";
import { SNOOZE_CHOICES, SNOOZE_CHOICE_NAMES } from "@/lib/domain/alerts/snooze";
import { formatCount } from "@/lib/domain/format-count";
import { fieldMessage } from "@/lib/domain/inputs/field-message";
import { maxChars, textInput } from "@/lib/domain/inputs/text";

/**
 * The alert rules as people edit them: the application's defaults on the Alerts page
 * (`PUT /api/alerts/rules`) and one watched webhook's own settings (`PUT
 * /api/watches/{webhookId}/alert-rules`). Numbers come as JSON numbers or as the text of a form
 * field; every refusal names the field by its label and says what to enter.
 */

/** What each rule is called where it is switched on or off. */
export const RULE_NAMES: Record<RuleId, string> = {
  streak: "Failing streak",
  rate: "Failure rate",
  inactive: "Webhook turned inactive",
  errorsJump: "Errors jump",
  silence: "No delivery at all",
  watchUnreadable: "Watch cannot read",
};

/** The label of each number and time field, as a person sees it (and as every error names it). */
export const RULE_LABELS = {
  "streak.min": "Failing streak",
  "rate.percent": "Failure rate (%)",
  "rate.windowMinutes": "Over (minutes)",
  "rate.minAttempts": "At least (attempts)",
  "errorsJump.by": "Errors jump by",
  "silence.minutes": "No delivery for (minutes)",
  cooldownMinutes: "Cooldown (minutes)",
  "quietHours.start": "Quiet from",
  "quietHours.end": "Quiet until",
  "quietHours.zone": "Time zone",
  snooze: "Snooze",
} as const;
export type RuleField = keyof typeof RULE_LABELS;

const WEEK_MINUTES = 7 * 24 * 60;

/** The range of each number field: whole numbers from `min` to `max`. */
export const RULE_RANGES = {
  "streak.min": { min: 1, max: 1000, unit: "failures in a row" },
  "rate.percent": { min: 1, max: 100, unit: "%" },
  "rate.windowMinutes": { min: 1, max: WEEK_MINUTES, unit: "minutes (7 days)" },
  "rate.minAttempts": { min: 1, max: 100_000, unit: "attempts" },
  "errorsJump.by": { min: 1, max: 1_000_000, unit: "errors" },
  "silence.minutes": { min: 1, max: WEEK_MINUTES, unit: "minutes (7 days)" },
  cooldownMinutes: { min: 0, max: 24 * 60, unit: "minutes (a day)" },
} as const satisfies Partial<Record<RuleField, { min: number; max: number; unit: string }>>;
type NumberField = keyof typeof RULE_RANGES;

/** What a number field's error and hint say: "a whole number from 1 to 100 %". */
export function rangeText(field: NumberField): string {
  const { min, max, unit } = RULE_RANGES[field];
  return `a whole number from ${formatCount(min)} to ${formatCount(max)} ${unit}`;
}

/** A form's text as the number it spells ("  15 " → 15); anything else is left for the schema to refuse. */
function numberOfText(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  const text = raw.trim();
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : raw;
}

function wholeNumberInput(field: NumberField) {
  const { min, max } = RULE_RANGES[field];
  const error = fieldMessage(RULE_LABELS[field], `enter ${rangeText(field)}.`);
  return z.pipe(
    z.transform(numberOfText),
    z.number({ error }).check(
      z.refine((value: number) => Number.isInteger(value), { error, abort: true }),
      z.gte(min, { error }),
      z.lte(max, { error }),
    ),
  );
}

function enabledInput(rule: RuleId) {
  return z.boolean({ error: fieldMessage(RULE_NAMES[rule], "choose on or off (true or false).") });
}

const ruleSchemas = {
  streak: z.strictObject({ enabled: enabledInput("streak"), min: wholeNumberInput("streak.min") }),
  rate: z.strictObject({
    enabled: enabledInput("rate"),
    percent: wholeNumberInput("rate.percent"),
    windowMinutes: wholeNumberInput("rate.windowMinutes"),
    minAttempts: wholeNumberInput("rate.minAttempts"),
  }),
  inactive: z.strictObject({ enabled: enabledInput("inactive") }),
  errorsJump: z.strictObject({ enabled: enabledInput("errorsJump"), by: wholeNumberInput("errorsJump.by") }),
  silence: z.strictObject({ enabled: enabledInput("silence"), minutes: wholeNumberInput("silence.minutes") }),
  watchUnreadable: z.strictObject({ enabled: enabledInput("watchUnreadable") }),
  cooldownMinutes: wholeNumberInput("cooldownMinutes"),
} satisfies Record<RuleId | "cooldownMinutes", z.ZodMiniType>;

/** Every rule, as the Alerts page saves the application's defaults. */
export const ruleSettingsSchema = z.strictObject(ruleSchemas);

/** The rules a webhook sets itself, each one whole; a rule left out follows the application's. */
export const ruleOverridesSchema = z.strictObject({
  streak: z.optional(ruleSchemas.streak),
  rate: z.optional(ruleSchemas.rate),
  inactive: z.optional(ruleSchemas.inactive),
  errorsJump: z.optional(ruleSchemas.errorsJump),
  silence: z.optional(ruleSchemas.silence),
  watchUnreadable: z.optional(ruleSchemas.watchUnreadable),
  cooldownMinutes: z.optional(ruleSchemas.cooldownMinutes),
});

// Both schemas produce what the store keeps.
ruleSettingsSchema satisfies z.ZodMiniType<RuleSettings>;
ruleOverridesSchema satisfies z.ZodMiniType<Partial<RuleSettings>>;

function clockInput(field: "quietHours.start" | "quietHours.end") {
  const label = RULE_LABELS[field];
  const error = fieldMessage(label, "enter a time on the 24-hour clock as HH:MM, e.g. 22:00.");
  return textInput(label, "enter a time as HH:MM, e.g. 22:00.").check(
    z.trim(),
    z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error }),
  );
}

/** A zone the runtime's time zone database knows, in its canonical spelling ("europe/berlin" → "Europe/Berlin"). */
export function canonicalZone(zone: string): string | null {
  // Only names: offsets like "+02:00" are not zones (they ignore summer time).
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const ZONE_MAX = 64;
const zoneLabel = RULE_LABELS["quietHours.zone"];
const zoneInput = textInput(zoneLabel, "choose a time zone, e.g. Europe/Berlin.").check(
  z.trim(),
  maxChars(zoneLabel, ZONE_MAX),
  z.refine((zone: string) => canonicalZone(zone) !== null, {
    error: fieldMessage(zoneLabel, "choose a time zone from the list (an IANA name such as Europe/Berlin)."),
    abort: true,
  }),
  z.overwrite((zone: string) => canonicalZone(zone) ?? zone),
);

/** Daily hours in which the webhook's alerts are held, in a zone; may wrap midnight (22:00 → 07:00). */
export const quietHoursSchema = z
  .strictObject({
    start: clockInput("quietHours.start"),
    end: clockInput("quietHours.end"),
    zone: zoneInput,
  })
  .check(
    z.refine((hours) => hours.start !== hours.end, {
      error: fieldMessage(RULE_LABELS["quietHours.end"], "choose a time other than Quiet from."),
      path: ["end"],
    }),
  );

export const snoozeInput = z.enum([...SNOOZE_CHOICES, "off"], {
  error: fieldMessage(
    RULE_LABELS.snooze,
    `choose one of ${SNOOZE_CHOICES.join(", ")} (${Object.values(SNOOZE_CHOICE_NAMES).join(", ")}), or off to turn alerts back on.`,
  ),
});
export type SnoozeInput = z.infer<typeof snoozeInput>;

/**
 * A watched webhook's own settings. Each key left out keeps what is stored: `rules` replaces the
 * whole set of overrides (`{}`: follow the application's), `quietHours` null turns them off, and
 * `snooze` holds alerts for a while ("off" turns them back on).
 */
export const webhookAlertSettingsSchema = z.strictObject({
  rules: z.optional(ruleOverridesSchema),
  quietHours: z.optional(z.nullable(quietHoursSchema)),
  snooze: z.optional(snoozeInput),
});
export type WebhookAlertSettingsInput = z.infer<typeof webhookAlertSettingsSchema>;
