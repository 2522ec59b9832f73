/**
 * The incidents the console shows its people (the banner, browser notifications, the Alerts
 * page's Incidents section): what the alert engine fired, read from the store with the watch's
 * name and a link. Plain data and words, safe for client components.
 */
import type { RuleId } from "@/lib/domain/alerts/rules";

export type IncidentRule = RuleId | "summary";

/** Each rule's name as people read it. */
export const RULE_NAMES: Record<IncidentRule, string> = {
  streak: "Failing streak",
  rate: "Failure rate",
  inactive: "Webhook turned inactive",
  errorsJump: "Errors jumped",
  silence: "No deliveries",
  watchUnreadable: "Watch cannot read",
  summary: "Many webhooks failing",
};

/** One incident as the console shows it. */
export interface IncidentView {
  id: string;
  appId: string;
  applicationName: string;
  /** "" for an application-wide incident (a summary). */
  webhookId: string;
  /** The watch's name; the application's name for an application-wide incident. */
  name: string;
  /** The webhook's endpoint; "" for an application-wide incident. */
  endpoint: string;
  rule: IncidentRule;
  ruleName: string;
  state: "firing" | "resolved";
  openedAt: string;
  resolvedAt: string | null;
  /** One line: what is wrong (the rule's name when the engine gave none). */
  headline: string;
  /** When the failing started (ISO 8601), null when unknown. */
  since: string | null;
  counts: { failures: number; attempts: number } | null;
  /** Status codes of the failures, most frequent first (0 = no connection). */
  codes: Array<{ code: number; count: number }>;
  /** Where to look: the webhook's page, or the overview for an application-wide incident. */
  href: string;
}

/** `GET /api/alerts/incidents`: firing (application-wide first, then oldest first) and the newest resolved. */
export interface IncidentsAnswer {
  firing: IncidentView[];
  resolved: IncidentView[];
}

/** How many resolved incidents the console lists. */
export const RESOLVED_SHOWN = 20;

/** "1 alert firing", "3 alerts firing". */
export function firingText(count: number): string {
  return `${count} ${count === 1 ? "alert" : "alerts"} firing`;
}

/** The firing incident opened last: the one the banner names. */
export function newestFiring(firing: readonly IncidentView[]): IncidentView | null {
  let newest: IncidentView | null = null;
  for (const incident of firing) if (!newest || incident.openedAt > newest.openedAt) newest = incident;
  return newest;
}

/** A browser notification's title and body, for an incident that fired or recovered. */
export function incidentNotification(incident: IncidentView): { title: string; body: string } {
  if (incident.state === "resolved") {
    return {
      title: `Recovered: ${incident.name}`,
      body: `${incident.ruleName} cleared (${incident.applicationName}). It was: ${incident.headline}`,
    };
  }
  return {
    title: `Failing: ${incident.name}`,
    body: `${incident.headline} (${incident.ruleName}, ${incident.applicationName})`,
  };
}

/** Most entries a browser keeps of the incidents it has notified. */
export const NOTIFIED_MAX = 200;

/**
 * Which incidents this browser has yet to notify, and what it has notified after that. `seen`
 * holds `firing:<id>` and `resolved:<id>` entries; null when this browser has recorded nothing
 * yet: then what fires now is recorded without notifying (the banner shows it), so only
 * incidents that fire later notify. A resolved incident notifies "Recovered" only when its firing
 * was recorded here.
 */
export function notificationsDue(
  answer: IncidentsAnswer,
  seen: readonly string[] | null,
): { due: IncidentView[]; seen: string[] } {
  const firing = answer.firing.map((incident) => `firing:${incident.id}`);
  if (seen === null) return { due: [], seen: firing.slice(-NOTIFIED_MAX) };
  const known = new Set(seen);
  const due = [
    ...answer.firing.filter((incident) => !known.has(`firing:${incident.id}`)),
    ...answer.resolved.filter(
      (incident) => known.has(`firing:${incident.id}`) && !known.has(`resolved:${incident.id}`),
    ),
  ];
  const added = due.map((incident) => `${incident.state}:${incident.id}`);
  return { due, seen: [...seen, ...added].slice(-NOTIFIED_MAX) };
}
