/**
 * The alert rules: when a watched webhook's state fires an incident. Every application has
 * defaults (DEFAULT_RULES until someone changes them); a webhook may override any rule whole,
 * and carries its own snooze and quiet hours. Plain data, safe for client components.
 */

export const RULE_IDS = ["streak", "rate", "inactive", "errorsJump", "silence", "watchUnreadable"] as const;
export type RuleId = (typeof RULE_IDS)[number];

export interface RuleSettings {
  /** A failing streak of at least `min` attempts in a row. */
  streak: { enabled: boolean; min: number };
  /** At least `percent` % of the attempts of the last `windowMinutes` failed, over at least `minAttempts` attempts. */
  rate: { enabled: boolean; percent: number; windowMinutes: number; minAttempts: number };
  /** The webhook turned inactive. */
  inactive: { enabled: boolean };
  /** `numberOfErrors` rose by at least `by` between two polls. */
  errorsJump: { enabled: boolean; by: number };
  /** No delivery at all for `minutes` (off unless a person asks for it). */
  silence: { enabled: boolean; minutes: number };
  /** The watch cannot read the webhook: the key is rejected, or the hub keeps failing. */
  watchUnreadable: { enabled: boolean };
  /** After a webhook's incident resolves, a new one on the same webhook notifies only after this long. */
  cooldownMinutes: number;
}

export const DEFAULT_RULES: RuleSettings = {
  streak: { enabled: true, min: 5 },
  rate: { enabled: true, percent: 50, windowMinutes: 15, minAttempts: 10 },
  inactive: { enabled: true },
  errorsJump: { enabled: true, by: 10 },
  silence: { enabled: false, minutes: 60 },
  watchUnreadable: { enabled: true },
  cooldownMinutes: 30,
};

/** Daily hours in which a webhook's alerts are held (not sent), in the person's zone; may wrap midnight. */
export interface QuietHours {
  /** "HH:MM", 24-hour clock. */
  start: string;
  end: string;
  /** IANA time zone, e.g. Europe/Berlin. */
  zone: string;
}

/** One webhook's own settings: rules that replace the application's, and its snooze and quiet hours. */
export interface WebhookRuleOverride {
  rules: Partial<RuleSettings>;
  /** ISO time until which the webhook's alerts are held; null when not snoozed. */
  snoozedUntil: string | null;
  quietHours: QuietHours | null;
}

export const NO_OVERRIDE: WebhookRuleOverride = { rules: {}, snoozedUntil: null, quietHours: null };

/** The rules that apply to a webhook: the application's, with the webhook's overrides in their place. */
export function effectiveRules(appRules: RuleSettings, override: WebhookRuleOverride): RuleSettings {
  return { ...appRules, ...override.rules };
}
