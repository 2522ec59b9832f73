/**
 * A webhook's one incident lists the conditions that hold on it (a failing streak, a failure
 * rate, an errors jump, inactive, silence, the watch cannot read): which join, stay and leave
 * after each poll, and when a change makes the incident worse, so that it is told again. Pure, so
 * every instance that judges the same facts reaches the same list.
 */
import type { Breach, Verdicts } from "@/lib/domain/alerts/evaluate";
import { RULE_IDS, type RuleId, type RuleSettings } from "@/lib/domain/alerts/rules";

/** What a condition is about: a rule, or for a summary its many webhooks at once. */
export type ConditionRule = RuleId | "summary";

/** One condition of an incident: its rule's breach, kept current while it holds. */
export interface Condition extends Breach {
  rule: ConditionRule;
}

/** Conditions about the webhook's failed deliveries: they end once it delivers again. */
export const DELIVERY_RULES: ReadonlySet<ConditionRule> = new Set<ConditionRule>([
  "streak",
  "rate",
  "errorsJump",
]);

/**
 * The conditions after a poll, in RULE_IDS order. `delivering`: the webhook has delivered as many
 * times in a row since its last failure as resolve a failure issue. Then the delivery conditions
 * end, and cannot join, however much of a failure rate's window still failed. The failing streak
 * ends only then (not at its first success); a failure rate and an errors jump end sooner when
 * they stop holding; inactive, silence and "cannot read" end when they clear. A rule the facts
 * cannot judge (the poll failed) stays as it was; a disabled rule's condition leaves.
 */
export function nextConditions(
  previous: readonly Condition[],
  verdicts: Verdicts,
  rules: RuleSettings,
  delivering: boolean,
): Condition[] {
  const before = new Map(previous.map((condition) => [condition.rule, condition]));
  const next: Condition[] = [];
  for (const rule of RULE_IDS) {
    const verdict = verdicts[rule];
    const held = before.get(rule);
    if (verdict === undefined) {
      if (held) next.push(held);
    } else if (DELIVERY_RULES.has(rule) && delivering) {
      continue;
    } else if (verdict !== "clear") {
      next.push({ rule, ...verdict, since: held?.since ?? verdict.since });
    } else if (rule === "streak" && held && rules.streak.enabled) {
      next.push(held);
    }
  }
  return next;
}

/** What an incident's alerts have told: every condition named so far, and the longest streak. */
export interface Told {
  rules: ConditionRule[];
  streak: number;
}

const streakOf = (conditions: readonly Condition[]) =>
  conditions.find((condition) => condition.rule === "streak")?.failures ?? 0;

/** What has been told once an alert of `conditions` goes out after `told`. */
export function toldAfter(told: Told | null, conditions: readonly Condition[]): Told {
  const rules = new Set([...(told?.rules ?? []), ...conditions.map((condition) => condition.rule)]);
  return { rules: [...rules], streak: Math.max(told?.streak ?? 0, streakOf(conditions)) };
}

/** Each step of "worse" for a failing streak is this many times the one before: 5, 50, 500… */
export const STREAK_WORSE_FACTOR = 10;

/** How many of the streak's thresholds (the rule's minimum, then ×10 each) a streak of `length` reached. */
export function streakLevel(length: number, min: number): number {
  let level = 0;
  for (let threshold = Math.max(1, min); length >= threshold; threshold *= STREAK_WORSE_FACTOR) level++;
  return level;
}

/**
 * Whether `conditions` are worse than what was told: a condition joined that no alert of the
 * incident has named yet, or the failing streak reached a threshold above the longest one told.
 * A condition that left and came back is not news; counts that grow are not either.
 */
export function isWorse(told: Told, conditions: readonly Condition[], streakMin: number): boolean {
  if (conditions.some((condition) => !told.rules.includes(condition.rule))) return true;
  return streakLevel(streakOf(conditions), streakMin) > streakLevel(told.streak, streakMin);
}

/** "7 failures in a row; numberOfErrors rose by 11 (3 → 14) in 15 minutes". */
export function conditionsHeadline(conditions: readonly Condition[]): string {
  return conditions.map((condition) => condition.headline).join("; ");
}

/** The earliest start among conditions, and `since` (the incident's own so far). */
export function earliestSince(since: number | null, conditions: readonly Condition[]): number | null {
  const starts = [since, ...conditions.map((condition) => condition.since)].filter(
    (at): at is number => at !== null,
  );
  return starts.length > 0 ? Math.min(...starts) : null;
}
