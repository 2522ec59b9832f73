/**
 * The incidents the console shows its people (the banner, browser notifications, the Alerts
 * page's Incidents section): what the alert engine fired, one per failing webhook with the
 * conditions that hold on it, read from the store with the watch's name and a link. Plain data
 * and words, safe for client components.
 */
import type { ConditionRule } from "@/lib/domain/alerts/conditions";
import type { IncidentScope } from "@/lib/domain/alerts/message";

/** Each condition's name as people read it. */
export const RULE_NAMES: Record<ConditionRule, string> = {
  streak: "Failing streak",
  rate: "Failure rate",
  inactive: "Webhook turned inactive",
  errorsJump: "Errors jumped",
  silence: "No deliveries",
  watchUnreadable: "Watch cannot read",
  summary: "Many webhooks failing",
};

/** One condition of an incident, as the console lists it. */
export interface ConditionView {
  rule: ConditionRule;
  name: string;
  headline: string;
}

/** One incident as the console shows it: a webhook's (one at a time), an application's, or a summary. */
export interface IncidentView {
  id: string;
  appId: string;
  applicationName: string;
  /** "" for an application-wide incident or a summary. */
  webhookId: string;
  /** The watch's name; the application's name for an application-wide incident or a summary. */
  name: string;
  /** The webhook's endpoint; "" for an application-wide incident or a summary. */
  endpoint: string;
  scope: IncidentScope;
  state: "firing" | "resolved";
  openedAt: string;
  resolvedAt: string | null;
  /** One line: what is wrong (its conditions'), or once resolved, the recovery. */
  headline: string;
  /** What holds on it (what held last, once resolved). */
  conditions: ConditionView[];
  /** When the failing started (ISO 8601), null when unknown. */
  since: string | null;
  counts: { failures: number; attempts: number } | null;
  /** Status codes of the failures, most frequent first (0 = no connection). */
  codes: Array<{ code: number; count: number }>;
  /** Where to look: the webhook's page, or the overview for an application-wide incident. */
  href: string;
}

/**
 * `GET /api/alerts/incidents`: what fires, one per failing webhook and one per application whose
 * key the hub rejects (those first, then the oldest first); the summaries firing, which tell many
 * of those webhooks at once; and the newest resolved incidents.
 */
export interface IncidentsAnswer {
  firing: IncidentView[];
  summaries: IncidentView[];
  resolved: IncidentView[];
}

/** How many resolved incidents the console lists. */
export const RESOLVED_SHOWN = 20;

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * "1 webhook failing", "8 webhooks failing", "3 webhooks failing and 1 application the watch
 * cannot read": failing webhooks counted once each, whatever holds on them.
 */
export function firingText(firing: readonly IncidentView[]): string {
  const webhooks = firing.filter((incident) => incident.scope === "webhook").length;
  const applications = firing.length - webhooks;
  const unread = count(
    applications,
    "application the watch cannot read",
    "applications the watch cannot read",
  );
  if (webhooks === 0) return unread;
  const failing = count(webhooks, "webhook failing", "webhooks failing");
  return applications === 0 ? failing : `${failing} and ${unread}`;
}

/** The firing incident opened last: the one the banner names. */
export function newestFiring(firing: readonly IncidentView[]): IncidentView | null {
  let newest: IncidentView | null = null;
  for (const incident of firing) if (!newest || incident.openedAt > newest.openedAt) newest = incident;
  return newest;
}

/** A browser notification's title and body, for an incident that fired or recovered. */
export function incidentNotification(incident: IncidentView): { title: string; body: string } {
  const word = incident.state === "resolved" ? "Recovered" : "Failing";
  return { title: `${word}: ${incident.name}`, body: `${incident.headline} (${incident.applicationName})` };
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
