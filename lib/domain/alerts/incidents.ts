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
  const word = incident.state === "firing" ? "Failing" : "Recovered";
  return {
    title: `${word}: ${incident.name}`,
    body: `${incident.headline} (${incident.ruleName}, ${incident.applicationName})`,
  };
}
