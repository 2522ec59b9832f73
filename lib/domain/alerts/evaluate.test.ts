import { describe, expect, it } from "vitest";
import {
  evaluateRules,
  keyRejected,
  rankCodes,
  UNREADABLE_AFTER_POLLS,
  type Breach,
  type WebhookFacts,
} from "@/lib/domain/alerts/evaluate";
import { DEFAULT_RULES, type RuleSettings } from "@/lib/domain/alerts/rules";

const MINUTE = 60_000;
const NOW = Date.parse("2026-11-25T12:00:00Z");

function facts(change: Partial<WebhookFacts> = {}): WebhookFacts {
  return {
    active: true,
    streak: { length: 0, since: null, codes: [] },
    successRun: 0,
    window: { attempts: 20, failures: 0, codes: [], firstFailureAt: null },
    errors: { now: 3, before: 3, roseAt: null },
    lastDeliveryAt: NOW - MINUTE,
    watchedSince: NOW - 600 * MINUTE,
    read: { pollFailures: 0, errorCode: null },
    ...change,
  };
}

const rules = (change: Partial<RuleSettings> = {}): RuleSettings => ({ ...DEFAULT_RULES, ...change });

function breach(verdict: Breach | "clear" | undefined): Breach {
  if (verdict === undefined || verdict === "clear") throw new Error(`expected a breach, got ${verdict}`);
  return verdict;
}

describe("evaluateRules", () => {
  it("finds nothing wrong with a healthy webhook, and judges every rule", () => {
    const verdicts = evaluateRules(rules({ silence: { enabled: true, minutes: 60 } }), facts(), NOW);
    expect(verdicts).toEqual({
      watchUnreadable: "clear",
      streak: "clear",
      rate: "clear",
      inactive: "clear",
      errorsJump: "clear",
      silence: "clear",
    });
  });

  it("fires the streak at exactly its minimum, with its codes and start, not one below", () => {
    const codes = [{ code: 500, count: 5 }];
    const at = facts({ streak: { length: 5, since: NOW - 7 * MINUTE, codes } });
    expect(breach(evaluateRules(rules(), at, NOW).streak)).toEqual({
      headline: "5 failures in a row",
      since: NOW - 7 * MINUTE,
      failures: 5,
      attempts: 5,
      codes,
    });
    const below = facts({ streak: { length: 4, since: NOW - 7 * MINUTE, codes } });
    expect(evaluateRules(rules(), below, NOW).streak).toBe("clear");
  });

  it("fires the failure rate at its percentage with enough attempts, rounding down", () => {
    const window = {
      attempts: 10,
      failures: 5,
      codes: [{ code: 0, count: 5 }],
      firstFailureAt: NOW - MINUTE,
    };
    const fired = breach(evaluateRules(rules(), facts({ window }), NOW).rate);
    expect(fired.headline).toBe("50 % of 10 attempts failed in the last 15 minutes");
    expect(fired).toMatchObject({ failures: 5, attempts: 10, since: NOW - MINUTE });
    // 99 of 199 is 49.7 %: under 50 %, not rounded up to it.
    const under = { ...window, attempts: 199, failures: 99 };
    expect(evaluateRules(rules(), facts({ window: under }), NOW).rate).toBe("clear");
  });

  it("does not fire the rate below its minimum attempts, even at 100 %", () => {
    const window = { attempts: 9, failures: 9, codes: [], firstFailureAt: NOW };
    expect(evaluateRules(rules(), facts({ window }), NOW).rate).toBe("clear");
    const none = { attempts: 0, failures: 0, codes: [], firstFailureAt: null };
    expect(
      evaluateRules(rules({ rate: { ...DEFAULT_RULES.rate, minAttempts: 0 } }), facts({ window: none }), NOW)
        .rate,
    ).toBe("clear");
  });

  it("fires inactive only when the hub says inactive, not before the first read", () => {
    expect(breach(evaluateRules(rules(), facts({ active: false }), NOW).inactive).headline).toMatch(
      /inactive/,
    );
    expect(evaluateRules(rules(), facts({ active: null }), NOW).inactive).toBe("clear");
  });

  it("fires the numberOfErrors jump when it rose by at least `by` over the window", () => {
    const roseAt = NOW - 2 * 60_000;
    const fired = breach(
      evaluateRules(rules(), facts({ errors: { now: 15, before: 5, roseAt } }), NOW).errorsJump,
    );
    expect(fired.headline).toBe("numberOfErrors rose by 10 (5 → 15) in 15 minutes");
    expect(fired.failures).toBe(10);
    // Since when the count began to rise, not the start of the window.
    expect(fired.since).toBe(roseAt);
    expect(evaluateRules(rules(), facts({ errors: { now: 14, before: 5, roseAt } }), NOW).errorsJump).toBe(
      "clear",
    );
    expect(
      evaluateRules(rules(), facts({ errors: { now: 15, before: null, roseAt: null } }), NOW).errorsJump,
    ).toBe("clear");
    // A counter that went down (reset) is no jump.
    expect(
      evaluateRules(rules(), facts({ errors: { now: 0, before: 50, roseAt: null } }), NOW).errorsJump,
    ).toBe("clear");
  });

  it("fires silence only when enabled, from the last delivery or, with none, from the watch's start", () => {
    const quiet = facts({ lastDeliveryAt: NOW - 61 * MINUTE });
    expect(evaluateRules(rules(), quiet, NOW).silence).toBe("clear");
    const on = rules({ silence: { enabled: true, minutes: 60 } });
    expect(breach(evaluateRules(on, quiet, NOW).silence)).toMatchObject({
      headline: "no delivery for 61 minutes",
      since: NOW - 61 * MINUTE,
    });
    expect(evaluateRules(on, facts({ lastDeliveryAt: NOW - 59 * MINUTE }), NOW).silence).toBe("clear");
    const never = facts({ lastDeliveryAt: null, watchedSince: NOW - 90 * MINUTE });
    expect(breach(evaluateRules(on, never, NOW).silence).headline).toBe(
      "no delivery since the watch began, 90 minutes ago",
    );
  });

  it("fires watchUnreadable after polls fail in a row, and leaves the other rules unjudged meanwhile", () => {
    const failing = facts({
      read: { pollFailures: UNREADABLE_AFTER_POLLS, errorCode: "upstream_unavailable" },
      streak: { length: 50, since: NOW - 60 * MINUTE, codes: [] },
    });
    const verdicts = evaluateRules(rules(), failing, NOW);
    expect(Object.keys(verdicts)).toEqual(["watchUnreadable"]);
    expect(breach(verdicts.watchUnreadable).headline).toBe(
      "the watch cannot read the webhook: 2 polls in a row failed (upstream_unavailable)",
    );
    const once = facts({ read: { pollFailures: 1, errorCode: "upstream_unavailable" } });
    expect(evaluateRules(rules(), once, NOW)).toEqual({ watchUnreadable: "clear" });
  });

  it("reports a disabled rule as clear even when its condition holds", () => {
    const off = rules({ streak: { enabled: false, min: 1 }, inactive: { enabled: false } });
    const bad = facts({ active: false, streak: { length: 9, since: NOW, codes: [] } });
    const verdicts = evaluateRules(off, bad, NOW);
    expect(verdicts.streak).toBe("clear");
    expect(verdicts.inactive).toBe("clear");
  });

  it("says a rejected key is the application's, since when", () => {
    expect(keyRejected(NOW)).toMatchObject({
      since: NOW,
      headline: expect.stringMatching(/rejects .* API key/),
    });
  });
});

describe("rankCodes", () => {
  it("merges repeated codes and puts the most frequent first, ties by code", () => {
    expect(
      rankCodes([
        { code: 503, count: 2 },
        { code: 0, count: 3 },
        { code: 500, count: 3 },
        { code: 503, count: 2 },
      ]),
    ).toEqual([
      { code: 503, count: 4 },
      { code: 0, count: 3 },
      { code: 500, count: 3 },
    ]);
  });
});
