/**
 * The outbox's bench row, built from what was measured (alert-outbox.ts): two `npm run watcher`
 * instances sending one outbox, one killed mid-send. A receiver that drops repeats by
 * `webhook-id` (as docs/alerts.md asks) must keep exactly one delivery per destination per
 * incident: none lost, none under a second key.
 */
import { formatCount, type Figure } from "./report";

export interface OutboxReceived {
  /** Requests that arrived, resends after the kill included. */
  requests: number;
  /** Distinct `webhook-id`s among them: what a deduping receiver keeps. */
  kept: number;
  /** Incidents that arrived under more than one `webhook-id` (must be 0). */
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
      `${perIncident} deliveries per destination per incident kept by webhook-id: ${formatCount(kept)} of ` +
      `${formatCount(expected)} (${formatCount(sides.length)} destinations); ${formatCount(requests)} requests, ` +
      `${formatCount(requests - kept)} sent again with the same webhook-id after the kill ` +
      `(${formatCount(input.sendingAtKill)} being sent when it died, lease ${input.leaseSeconds} s); ` +
      `log: ${formatCount(input.delivered)} of ${formatCount(input.logRows)} rows delivered`,
    goal: "= 1 per destination per incident (one webhook-id each); killed mid-send",
    holds: exact && input.sendingAtKill > 0 ? "yes" : "no",
    details: { ...input, expected, kept, requests, perIncident },
  };
}
