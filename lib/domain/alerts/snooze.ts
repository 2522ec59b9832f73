/**
 * Snoozing a watched webhook's alerts: a person picks how long, and the webhook's override keeps
 * the end as `snoozedUntil`. "Until I turn it back on" is an end no clock reaches, so the engine
 * reads every snooze the same way (held while now < snoozedUntil).
 */

export const SNOOZE_CHOICES = ["1h", "4h", "24h", "untilTurnedOn"] as const;
export type SnoozeChoice = (typeof SNOOZE_CHOICES)[number];

export const SNOOZE_CHOICE_NAMES: Record<SnoozeChoice, string> = {
  "1h": "For 1 hour",
  "4h": "For 4 hours",
  "24h": "For 24 hours",
  untilTurnedOn: "Until I turn it back on",
};

const HOUR_MS = 60 * 60 * 1000;
const CHOICE_MS: Record<Exclude<SnoozeChoice, "untilTurnedOn">, number> = {
  "1h": HOUR_MS,
  "4h": 4 * HOUR_MS,
  "24h": 24 * HOUR_MS,
};

/** The `snoozedUntil` of "until I turn it back on". */
export const UNTIL_TURNED_ON = "9999-12-31T23:59:59.999Z";

/** When a snooze chosen at `now` ends. */
export function snoozedUntilFor(choice: SnoozeChoice, now: number): string {
  return choice === "untilTurnedOn" ? UNTIL_TURNED_ON : new Date(now + CHOICE_MS[choice]).toISOString();
}

/** The snooze still holding alerts at `now`, or null (none, or it has ended). */
export function activeSnooze(snoozedUntil: string | null, now: number): string | null {
  return snoozedUntil !== null && Date.parse(snoozedUntil) > now ? snoozedUntil : null;
}
