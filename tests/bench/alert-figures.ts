/**
 * The alerts' bench rows, built from what was measured. The outbox (alert-outbox.ts): two
 * `npm run watcher` instances sending one outbox to every kind of destination over HTTP, one
 * killed mid-send; a receiver that drops repeats by its key (`webhook-id`, PagerDuty's
 * `dedup_key`) must keep exactly one delivery per destination per incident: none lost, none
 * under a second key. The engine (alert-incidents.ts): how soon a
 * failing streak's alert arrives, and what one hub outage over many webhooks sends.
 */
import { formatCount, formatRatio, type Figure } from "./report";
import { percentile } from "./stats";

export interface OutboxReceived {
  /** Requests that arrived, resends after the kill included. */
  requests: number;
  /** Distinct keys among them (`webhook-id`, PagerDuty's `dedup_key`, else the alert's time): what a deduping receiver keeps. */
  kept: number;
  /** Incidents that arrived under more than one key (must be 0). */
  splitKeys: number;
}

export function outboxInstancesFigure(input: {
  incidents: number;
  destinations: Record<string, OutboxReceived>;
  /** Deliveries the killed instance was sending (leased) when it died. */
  sendingAtKill: number;
  /** Rows of the delivery log, and how many of them ended delivered. */
  logRows: number;
  delivered: number;
  leaseSeconds: number;
}): Figure {
  const sides = Object.values(input.destinations);
  const expected = input.incidents * sides.length;
  const kept = sides.reduce((sum, side) => sum + side.kept, 0);
  const requests = sides.reduce((sum, side) => sum + side.requests, 0);
  const perIncident = Math.max(...sides.map((side) => side.kept / input.incidents));
  const exact =
    sides.every((side) => side.kept === input.incidents && side.splitKeys === 0) &&
    input.logRows === expected &&
    input.delivered === expected;
  return {
    figure: `alerts, two instances, ${formatCount(input.incidents)} incidents, one killed mid-send`,
    measured:
      `${perIncident} deliveries per destination per incident kept by each receiver's key: ${formatCount(kept)} of ` +
      `${formatCount(expected)} (${formatCount(sides.length)} destinations: ${Object.keys(input.destinations).join(", ")}); ` +
      `${formatCount(requests)} requests, ${formatCount(requests - kept)} sent again with the same key after the kill ` +
      `(${formatCount(input.sendingAtKill)} being sent when it died, lease ${input.leaseSeconds} s); ` +
      `log: ${formatCount(input.delivered)} of ${formatCount(input.logRows)} rows delivered`,
    goal: "= 1 per destination per incident (one webhook-id each); killed mid-send",
    holds: exact && input.sendingAtKill > 0 ? "yes" : "no",
    details: { ...input, expected, kept, requests, perIncident },
  };
}

/** The latency goal of issue 26: 1.5 × the poll interval + 1 s. */
export function latencyGoalMs(intervalSeconds: number): number {
  return 1.5 * intervalSeconds * 1000 + 1000;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Alert latency: from the hub's createdDate of the failing log that completes each incident's
 * streak to the firing alert's arrival at the receiver. An incident whose alert never came is a
 * miss, and the row does not hold.
 */
export function alertLatencyFigure(input: {
  intervalSeconds: number;
  /** Per incident: its latency in ms, or null when no firing alert arrived. */
  latenciesMs: ReadonlyArray<number | null>;
  /** Alerts the receiver got in all (firing ones and any other). */
  alerts: number;
}): Figure {
  const goalMs = latencyGoalMs(input.intervalSeconds);
  const arrived = input.latenciesMs.filter((ms): ms is number => ms !== null);
  const incidents = input.latenciesMs.length;
  const figure = `alert latency, ${formatCount(incidents)} incidents, poll interval ${input.intervalSeconds} s`;
  const goal = `p95 ≤ 1.5 × interval + 1 s (${seconds(goalMs)}), ratio ≤ 1; every incident alerted`;
  if (arrived.length === 0)
    return {
      figure,
      measured: `no alert arrived for ${formatCount(incidents)} incidents`,
      goal,
      holds: "no",
      details: { ...input, goalMs },
    };
  const p50 = percentile(arrived, 0.5);
  const p95 = percentile(arrived, 0.95);
  const value = p95 / goalMs;
  return {
    figure,
    measured:
      `${formatRatio(value)} (p95 ${seconds(p95)} ÷ ${seconds(goalMs)}); p50 ${seconds(p50)}, ` +
      `max ${seconds(Math.max(...arrived))}; ${formatCount(arrived.length)} of ${formatCount(incidents)} ` +
      `incidents alerted, ${formatCount(input.alerts)} alerts received`,
    goal,
    holds: value <= 1 && arrived.length === incidents ? "yes" : "no",
    details: { ...input, goalMs, p50, p95, ratio: value },
  };
}

/**
 * Fairness: the alert latency of applications with a healthy destination each, while one other
 * application's alert is being sent to `slowDestinations` receivers that never answer. Holds when
 * the latency row would, and the slow application's deliveries were waiting or in flight the
 * whole time (its load lasted the measure).
 */
export function fairnessFigure(input: {
  intervalSeconds: number;
  latenciesMs: ReadonlyArray<number | null>;
  alerts: number;
  slowDestinations: number;
  /** The slow application's deliveries sampled while the others were timed: fewest unsettled, most in flight. */
  slow: { fewestUnsettled: number; mostInFlight: number };
}): Figure {
  const latency = alertLatencyFigure(input);
  const { fewestUnsettled, mostInFlight } = input.slow;
  return {
    ...latency,
    figure:
      `alert latency with one application's ${formatCount(input.slowDestinations)} slow destinations, ` +
      `${formatCount(input.latenciesMs.length)} incidents of others, poll interval ${input.intervalSeconds} s`,
    measured:
      `${latency.measured}; meanwhile the slow application had at least ${fewestUnsettled} deliveries ` +
      `waiting or in flight, at most ${mostInFlight} in flight`,
    holds: latency.holds === "yes" && fewestUnsettled > 0 ? "yes" : "no",
    details: { ...latency.details, slowDestinations: input.slowDestinations, slow: input.slow },
  };
}

/** What one destination received during a hub outage over many watched webhooks. */
export interface OutageReceived {
  /** Alerts that tell something is failing (firing or summary), within the window observed. */
  firing: number;
  /** Summaries among them. */
  summaries: number;
  /** Watched webhooks listed inside the (first) summary. */
  listed: number;
  /** Seconds from the outage's start to the first alert, null when none came. */
  firstAfterSeconds: number | null;
  /** Recovery notices after the outage ended. */
  resolved: number;
}

/**
 * One hub outage over many webhooks of one application: each destination gets at most one
 * alert within the cooldown, a summary that lists every webhook it failed.
 */
export function outageFigure(input: {
  webhooks: number;
  destinations: Record<string, OutageReceived>;
  /** Webhooks the engine found unreadable (a watchUnreadable incident) while observed. */
  unreadable: number;
  observedSeconds: number;
  cooldownMinutes: number;
}): Figure {
  const sides = Object.values(input.destinations);
  const most = Math.max(...sides.map((side) => side.firing));
  const fewestListed = Math.min(...sides.map((side) => side.listed));
  const firstAfter = sides.map((side) => side.firstAfterSeconds).filter((s): s is number => s !== null);
  const holds = sides.every(
    (side) => side.firing === 1 && side.summaries === 1 && side.listed === input.webhooks,
  );
  return {
    figure: `alerts, ${formatCount(input.webhooks)} watched webhooks failing at once (hub outage)`,
    measured:
      `${most} alert per destination at most (${formatCount(sides.length)} destinations) in ` +
      `${Math.round(input.observedSeconds)} s of a ${input.cooldownMinutes} min cooldown, ` +
      `${formatCount(input.unreadable)} webhooks found unreadable in it; the summary ` +
      `lists ${formatCount(fewestListed)} of ${formatCount(input.webhooks)} webhooks; first ` +
      (firstAfter.length ? `${Math.round(Math.max(...firstAfter))} s after the outage began` : "never came") +
      `; ${sides.map((side) => side.resolved).join(" + ")} recovery notices after it`,
    goal: "≤ 1 summary per destination per cooldown, listing every webhook",
    holds: holds ? "yes" : "no",
    details: { ...input, most, fewestListed },
  };
}

/**
 * The sandbox demo's failing webhooks under the engine: one firing incident each (the banner and
 * the Alerts page count them), whatever conditions hold on them. Holds when the incidents are
 * exactly the failing demo webhooks, one each.
 */
export function demoIncidentsFigure(input: {
  /** Demo webhooks whose endpoint fails now or that are inactive. */
  failing: number;
  /** Firing incidents of webhooks, and how many distinct webhooks and failing demo webhooks they are of. */
  incidents: number;
  webhooks: number;
  ofFailing: number;
  /** Conditions listed in them (what were incidents of their own, one per rule, before). */
  conditions: number;
  summaries: number;
  alerts: number;
}): Figure {
  const exact =
    input.incidents === input.failing &&
    input.webhooks === input.failing &&
    input.ofFailing === input.failing;
  return {
    figure: `firing incidents for the ${formatCount(input.failing)} failing demo webhooks`,
    measured:
      `${formatCount(input.incidents)} (one per webhook: ${formatCount(input.ofFailing)} of the ` +
      `${formatCount(input.failing)} failing), listing ${formatCount(input.conditions)} conditions; ` +
      `${formatCount(input.summaries)} summary, ${formatCount(input.alerts)} alerts received`,
    goal: `= the failing demo webhooks (${formatCount(input.failing)}), one each`,
    holds: exact ? "yes" : "no",
    details: input,
  };
}

/**
 * A fixed endpoint: from the hub's time of the success that makes WATCH_ISSUE_RESOLVE_AFTER in a
 * row to the "recovered" alert's arrival, while the failure rate over its window still holds.
 * Holds within 2 poll intervals; no alert within the time waited is a miss.
 */
export function recoveryFigure(input: {
  intervalSeconds: number;
  /** Successes in a row that end an incident, and how many were sent after the fix. */
  resolveAfter: number;
  successes: number;
  /** The failure rate's window when the recovery came: failures of attempts. */
  window: { failures: number; attempts: number };
  /** ms from that success to the recovered alert; null when none came within `waitedSeconds`. */
  afterMs: number | null;
  waitedSeconds: number;
}): Figure {
  const goalMs = 2 * input.intervalSeconds * 1000;
  const figure = `"recovered" after a fixed endpoint's successes, poll interval ${input.intervalSeconds} s`;
  const goal = `within 2 poll intervals (${seconds(goalMs)}) of the success that makes ${formatCount(input.resolveAfter)} in a row`;
  const rate = `${formatCount(input.window.failures)} of ${formatCount(input.window.attempts)} attempts in the failure rate's window failed`;
  if (input.afterMs === null)
    return {
      figure,
      measured: `none within ${input.waitedSeconds} s of ${formatCount(input.successes)} successes (${rate})`,
      goal,
      holds: "no",
      details: { ...input, goalMs },
    };
  return {
    figure,
    measured:
      `${seconds(input.afterMs)} (${formatRatio(input.afterMs / (input.intervalSeconds * 1000))} poll intervals) ` +
      `after success ${formatCount(input.resolveAfter)} of ${formatCount(input.successes)} in a row; ${rate}`,
    goal,
    holds: input.afterMs <= goalMs ? "yes" : "no",
    details: { ...input, goalMs },
  };
}
