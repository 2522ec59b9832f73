/**
 * The alert rules judged against one watched webhook: pure, so every instance that evaluates the
 * same facts reaches the same verdicts. The store gathers the facts (lib/server/alerts/facts.ts);
 * conditions.ts turns the verdicts into the conditions of the webhook's incident.
 */
import type { RuleId, RuleSettings } from "@/lib/domain/alerts/rules";

export interface CodeCount {
  /** 0 = no connection. */
  code: number;
  count: number;
}

/** Polls in a row that must fail before the watch counts as unable to read the webhook. */
export const UNREADABLE_AFTER_POLLS = 2;

const MINUTE = 60_000;

/** What the store knows of one watched webhook when its rules are judged. Times are epoch ms. */
export interface WebhookFacts {
  /** The hub's `active`; null before the first read. */
  active: boolean | null;
  /** The failing attempts since the newest success. */
  streak: { length: number; since: number | null; codes: CodeCount[] };
  /**
   * Successful deliveries since the newest failure, counted up to the number that resolves a
   * failure issue (WATCH_ISSUE_RESOLVE_AFTER): reaching it, the webhook delivers again.
   */
  successRun: number;
  /** Attempts sent within the rate rule's window. */
  window: { attempts: number; failures: number; codes: CodeCount[]; firstFailureAt: number | null };
  /**
   * `numberOfErrors` now and at the start of the rate rule's window (null: never read), and when
   * it first rose above `before` within the window (null: it did not).
   */
  errors: { now: number | null; before: number | null; roseAt: number | null };
  /** The newest stored delivery's send time; null when none. */
  lastDeliveryAt: number | null;
  /** When the watch began (silence counts from here when nothing was ever delivered). */
  watchedSince: number;
  /** Can the watch read the webhook: its polls failing in a row and the last one's error. */
  read: { pollFailures: number; errorCode: string | null };
}

/** A rule that holds: what fired, as the alert tells it. */
export interface Breach {
  /** One line: what is wrong. */
  headline: string;
  /** When the trouble began; null when unknown. */
  since: number | null;
  failures: number;
  attempts: number;
  codes: CodeCount[];
}

/** A rule's verdict: breached, clear, or absent when the facts cannot tell (the last poll failed). */
export type Verdicts = Partial<Record<RuleId, Breach | "clear">>;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Whole percent, rounded down, so "49.9 %" never reads as 50. */
const percentOf = (part: number, whole: number) => Math.floor((part * 100) / whole);

/**
 * Judges every enabled rule; a disabled rule is clear (its condition, if any, leaves). When the
 * last poll failed the delivery facts are stale, so only `watchUnreadable` is judged.
 */
export function evaluateRules(rules: RuleSettings, facts: WebhookFacts, now: number): Verdicts {
  const verdicts: Verdicts = {};
  const judge = (rule: RuleId, enabled: boolean, breach: () => Breach | null) => {
    verdicts[rule] = (enabled && breach()) || "clear";
  };

  judge("watchUnreadable", rules.watchUnreadable.enabled, () => unreadable(facts));
  if (facts.read.pollFailures > 0) return verdicts;

  judge("streak", rules.streak.enabled, () =>
    facts.streak.length >= rules.streak.min
      ? {
          headline: `${plural(facts.streak.length, "failure")} in a row`,
          since: facts.streak.since,
          failures: facts.streak.length,
          attempts: facts.streak.length,
          codes: facts.streak.codes,
        }
      : null,
  );

  judge("rate", rules.rate.enabled, () => {
    const { attempts, failures } = facts.window;
    if (attempts < rules.rate.minAttempts || attempts === 0) return null;
    const percent = percentOf(failures, attempts);
    if (percent < rules.rate.percent) return null;
    return {
      headline: `${percent} % of ${plural(attempts, "attempt")} failed in the last ${plural(rules.rate.windowMinutes, "minute")}`,
      since: facts.window.firstFailureAt,
      failures,
      attempts,
      codes: facts.window.codes,
    };
  });

  judge("inactive", rules.inactive.enabled, () =>
    facts.active === false
      ? {
          headline: "the webhook is inactive: the hub delivers nothing to it",
          since: null,
          failures: 0,
          attempts: 0,
          codes: facts.streak.codes,
        }
      : null,
  );

  judge("errorsJump", rules.errorsJump.enabled, () => {
    const { now: count, before, roseAt } = facts.errors;
    if (count === null || before === null || count - before < rules.errorsJump.by) return null;
    return {
      headline: `numberOfErrors rose by ${count - before} (${before} → ${count}) in ${plural(rules.rate.windowMinutes, "minute")}`,
      since: roseAt,
      failures: count - before,
      attempts: 0,
      codes: facts.window.codes,
    };
  });

  judge("silence", rules.silence.enabled, () => {
    const from = facts.lastDeliveryAt ?? facts.watchedSince;
    if (now - from < rules.silence.minutes * MINUTE) return null;
    const quiet = Math.floor((now - from) / MINUTE);
    return {
      headline:
        facts.lastDeliveryAt === null
          ? `no delivery since the watch began, ${plural(quiet, "minute")} ago`
          : `no delivery for ${plural(quiet, "minute")}`,
      since: from,
      failures: 0,
      attempts: 0,
      codes: [],
    };
  });

  return verdicts;
}

/**
 * The application-wide `watchUnreadable`: the hub rejected the application's key, so none of its
 * webhooks is polled until someone signs in with the current key.
 */
export function keyRejected(at: number): Breach {
  return {
    headline: "the hub rejects this application's API key, so the watch cannot read its webhooks",
    since: at,
    failures: 0,
    attempts: 0,
    codes: [],
  };
}

function unreadable({ read }: WebhookFacts): Breach | null {
  if (read.pollFailures < UNREADABLE_AFTER_POLLS) return null;
  return {
    headline: `the watch cannot read the webhook: ${plural(read.pollFailures, "poll")} in a row failed (${read.errorCode ?? "error"})`,
    since: null,
    failures: read.pollFailures,
    attempts: read.pollFailures,
    codes: [],
  };
}

/** Status codes counted, most frequent first (then lowest code), for an alert's `codes`. */
export function rankCodes(codes: Iterable<CodeCount>): CodeCount[] {
  const merged = new Map<number, number>();
  for (const { code, count } of codes) merged.set(code, (merged.get(code) ?? 0) + count);
  return [...merged]
    .map(([code, count]) => ({ code, count }))
    .sort((a, b) => b.count - a.count || a.code - b.code);
}
