import { describe, expect, it } from "vitest";
import {
  isWorse,
  nextConditions,
  streakLevel,
  toldAfter,
  type Condition,
  type ConditionRule,
} from "@/lib/domain/alerts/conditions";
import type { Breach, Verdicts } from "@/lib/domain/alerts/evaluate";
import { DEFAULT_RULES } from "@/lib/domain/alerts/rules";

const breach = (headline: string, since: number | null = 1000, failures = 5): Breach => ({
  headline,
  since,
  failures,
  attempts: failures,
  codes: [{ code: 500, count: failures }],
});
const held = (rule: ConditionRule, headline: string, since: number | null = 1000): Condition => ({
  rule,
  ...breach(headline, since),
});
const rulesOf = (conditions: Condition[]) => conditions.map((c) => `${c.rule}: ${c.headline}`);

describe("the conditions of a webhook's incident after a poll", () => {
  const STREAK = held("streak", "12 failures in a row");
  const RATE = held("rate", "60 % of 20 attempts failed");
  const INACTIVE = held("inactive", "the webhook is inactive");
  const UNREAD = held("watchUnreadable", "the watch cannot read the webhook");

  const cases: Array<{
    name: string;
    before: Condition[];
    verdicts: Verdicts;
    delivering?: boolean;
    rules?: Partial<typeof DEFAULT_RULES>;
    after: string[];
  }> = [
    {
      name: "conditions that start to hold join, in the rules' order",
      before: [],
      verdicts: { errorsJump: breach("rose by 11"), streak: breach("5 failures in a row"), rate: "clear" },
      after: ["streak: 5 failures in a row", "errorsJump: rose by 11"],
    },
    {
      name: "a failing streak ended by a success stays until the webhook delivers again",
      before: [STREAK],
      verdicts: { streak: "clear", rate: "clear" },
      after: ["streak: 12 failures in a row"],
    },
    {
      name: "delivering again (N successes in a row) ends the streak, and a rate whose window still fails",
      before: [STREAK, RATE],
      verdicts: { streak: "clear", rate: breach("60 % of 20 attempts failed") },
      delivering: true,
      after: [],
    },
    {
      name: "delivering again, a failure rate over the window cannot join either",
      before: [],
      verdicts: { rate: breach("55 % of 20 attempts failed"), errorsJump: breach("rose by 10") },
      delivering: true,
      after: [],
    },
    {
      name: "conditions not about deliveries stay while they hold, delivering or not",
      before: [STREAK, INACTIVE],
      verdicts: { streak: "clear", inactive: breach("the webhook is inactive", null) },
      delivering: true,
      after: ["inactive: the webhook is inactive"],
    },
    {
      name: "a failure rate that stops holding leaves before the webhook delivers again",
      before: [STREAK, RATE],
      verdicts: { streak: breach("13 failures in a row"), rate: "clear" },
      after: ["streak: 13 failures in a row"],
    },
    {
      name: "a rule the facts cannot judge (the poll failed) stays as it was",
      before: [STREAK],
      verdicts: { watchUnreadable: breach("the watch cannot read the webhook") },
      after: ["streak: 12 failures in a row", "watchUnreadable: the watch cannot read the webhook"],
    },
    {
      name: "cannot read leaves when a poll answers again",
      before: [UNREAD],
      verdicts: { watchUnreadable: "clear", streak: "clear" },
      after: [],
    },
    {
      name: "a disabled streak leaves at once",
      before: [STREAK],
      verdicts: { streak: "clear" },
      rules: { streak: { enabled: false, min: 5 } },
      after: [],
    },
  ];

  it.each(cases)("$name", ({ before, verdicts, delivering = false, rules = {}, after }) => {
    expect(rulesOf(nextConditions(before, verdicts, { ...DEFAULT_RULES, ...rules }, delivering))).toEqual(
      after,
    );
  });

  it("a condition kept current keeps the start it first had", () => {
    const [streak] = nextConditions(
      [STREAK],
      { streak: breach("20 failures in a row", 5000) },
      DEFAULT_RULES,
      false,
    );
    expect(streak).toMatchObject({ headline: "20 failures in a row", since: 1000 });
  });
});

describe("what makes an incident worse", () => {
  const told = toldAfter(null, [held("streak", "5 failures in a row"), held("rate", "60 %")]);

  it("remembers every condition told and the longest streak", () => {
    expect(told).toEqual({ rules: ["streak", "rate"], streak: 5 });
    const later = toldAfter(told, [{ ...held("inactive", "inactive") }]);
    expect(later).toEqual({ rules: ["streak", "rate", "inactive"], streak: 5 });
  });

  const cases: Array<{ name: string; now: Condition[]; worse: boolean }> = [
    {
      name: "the same conditions, counts grown",
      now: [{ ...held("streak", "9 in a row"), failures: 9 }],
      worse: false,
    },
    {
      name: "a condition joined that was not told",
      now: [held("streak", "5"), held("inactive", "inactive")],
      worse: true,
    },
    { name: "a told condition that left and came back", now: [held("rate", "60 %")], worse: false },
    {
      name: "the streak reached 10 × the rule's minimum",
      now: [{ ...held("streak", "50 in a row"), failures: 50 }],
      worse: true,
    },
    {
      name: "the streak short of 10 × the minimum",
      now: [{ ...held("streak", "49 in a row"), failures: 49 }],
      worse: false,
    },
  ];

  it.each(cases)("$name: worse = $worse", ({ now, worse }) => {
    expect(isWorse(told, now, DEFAULT_RULES.streak.min)).toBe(worse);
  });

  it("counts the streak's thresholds: the minimum, then ×10 each", () => {
    expect([0, 4, 5, 49, 50, 499, 500].map((n) => streakLevel(n, 5))).toEqual([0, 0, 1, 1, 2, 2, 3]);
  });
});
