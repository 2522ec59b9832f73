import { formatCount } from "@/lib/domain/format-count";
import type { RuleId, RuleSettings } from "@/lib/domain/alerts/rules";

/**
 * The rules as forms show and read them: which number fields each rule has (named by their path,
 * as the input schemas and their errors name them), and one line saying what a rule's values mean.
 */

export type RuleKey = RuleId | "cooldownMinutes";

export const RULE_KEYS: readonly RuleKey[] = [
  "streak",
  "rate",
  "inactive",
  "errorsJump",
  "silence",
  "watchUnreadable",
  "cooldownMinutes",
];

export const RULE_NUMBER_FIELDS = {
  streak: ["streak.min"],
  rate: ["rate.percent", "rate.windowMinutes", "rate.minAttempts"],
  inactive: [],
  errorsJump: ["errorsJump.by"],
  silence: ["silence.minutes"],
  watchUnreadable: [],
  cooldownMinutes: ["cooldownMinutes"],
} as const satisfies Record<RuleKey, readonly string[]>;
export type RuleNumberField = (typeof RULE_NUMBER_FIELDS)[RuleKey][number];

/** A number field's value in `rules` ("rate.percent" → rules.rate.percent). */
export function ruleNumber(rules: RuleSettings, field: RuleNumberField): number {
  if (field === "cooldownMinutes") return rules.cooldownMinutes;
  const [rule, key] = field.split(".") as [RuleId, string];
  return (rules[rule] as unknown as Record<string, number>)[key]!;
}

const minutes = (n: number) => `${formatCount(n)} minute${n === 1 ? "" : "s"}`;

/** What a rule fires on with these values, e.g. "at least 5 failures in a row"; "off" when switched off. */
export function ruleSummary(rules: RuleSettings, key: RuleKey): string {
  if (key === "cooldownMinutes")
    return `${minutes(rules.cooldownMinutes)} before the same webhook alerts again`;
  if (!rules[key].enabled) return "off";
  switch (key) {
    case "streak":
      return `at least ${formatCount(rules.streak.min)} failures in a row`;
    case "rate":
      return `${rules.rate.percent} % failed over ${minutes(rules.rate.windowMinutes)}, of at least ${formatCount(rules.rate.minAttempts)} attempts`;
    case "inactive":
      return "when the hub marks it inactive";
    case "errorsJump":
      return `when its error count rises by ${formatCount(rules.errorsJump.by)} or more`;
    case "silence":
      return `no delivery for ${minutes(rules.silence.minutes)}`;
    case "watchUnreadable":
      return "when the key is rejected or the hub keeps failing";
  }
}
