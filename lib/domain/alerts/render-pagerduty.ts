import {
  alertFacts,
  alertTitle,
  type AlertMessage,
  type AlertSummaryItem,
} from "@/lib/domain/alerts/message";

/**
 * An alert as a PagerDuty Events API v2 event (docs/alerts.md): every alert of one incident
 * carries the incident's id as `dedup_key`, so its firing alert opens one PagerDuty alert, its
 * updates trigger it again (PagerDuty folds them into that alert) and its recovery resolves it.
 * A test alert has its own key and severity `info`.
 */

/** PagerDuty's severities, most severe first. */
export type PagerDutySeverity = "critical" | "error" | "warning" | "info";

/** A failing streak this long (the default rule's minimum × 10) pages as critical. */
export const CRITICAL_STREAK = 50;

/** PagerDuty refuses a summary over 1024 characters. */
const SUMMARY_MAX = 1024;
/** Webhooks of a summary listed in its details. */
const WEBHOOKS_LISTED = 20;

export interface PagerDutyEvent {
  routing_key: string;
  event_action: "trigger" | "resolve";
  dedup_key: string;
  payload?: {
    summary: string;
    source: string;
    severity: PagerDutySeverity;
    timestamp: string;
    component: string;
    group: string;
    class: string;
    custom_details: Record<string, unknown>;
  };
  client?: string;
  client_url?: string;
  links?: Array<{ href: string; text: string }>;
}

/**
 * How urgent the page is: critical when nothing is delivered (the webhook turned inactive), the
 * console cannot read it (or its application's key), many webhooks fail at once, or a failing
 * streak reached CRITICAL_STREAK; a test is info; anything else is error.
 */
export function pagerDutySeverity(message: AlertMessage): PagerDutySeverity {
  if (message.kind === "test") return "info";
  if (message.incident?.scope === "summary") return "critical";
  const critical = message.conditions.some(
    ({ rule, counts }) =>
      rule.id === "inactive" ||
      rule.id === "watchUnreadable" ||
      (rule.id === "streak" && counts.failures >= CRITICAL_STREAK),
  );
  return critical ? "critical" : "error";
}

/** The incident's id from firing to recovery; a test alert's own key. */
export function pagerDutyDedupKey(message: AlertMessage): string {
  return message.incident?.id ?? message.idempotencyKey;
}

const listed = (item: AlertSummaryItem) => ({
  name: item.webhook.name,
  failures: item.failures,
  lastStatusCode: item.lastStatusCode,
  link: item.link,
});

/** Where the trouble is: the endpoint's host for a webhook, else the application. */
function sourceOf(message: AlertMessage): string {
  const endpoint = message.webhook?.endpoint;
  if (endpoint && URL.canParse(endpoint)) return new URL(endpoint).host;
  return `application ${message.application.name}`;
}

export function renderPagerDuty(message: AlertMessage, routingKey: string): PagerDutyEvent {
  const dedupKey = pagerDutyDedupKey(message);
  if (message.kind === "recovered")
    return { routing_key: routingKey, event_action: "resolve", dedup_key: dedupKey };
  const title = alertTitle(message);
  const link = message.links.webhook ?? message.links.console;
  return {
    routing_key: routingKey,
    event_action: "trigger",
    dedup_key: dedupKey,
    payload: {
      summary: title.length <= SUMMARY_MAX ? title : `${title.slice(0, SUMMARY_MAX - 1)}…`,
      source: sourceOf(message),
      severity: pagerDutySeverity(message),
      timestamp: message.at,
      component: message.webhook?.name ?? message.application.name,
      group: message.application.name,
      class: message.conditions[0]?.rule.id ?? message.incident?.scope ?? message.kind,
      custom_details: {
        ...Object.fromEntries(alertFacts(message)),
        conditions: message.conditions.map((condition) => ({
          rule: condition.rule.name,
          headline: condition.headline,
          since: condition.since,
          failures: condition.counts.failures,
          attempts: condition.counts.attempts,
          codes: condition.codes,
        })),
        // An update triggers the same alert again, so its details list every webhook, not only the added ones.
        ...(message.webhooks.length > 0
          ? { webhooks: message.webhooks.slice(0, WEBHOOKS_LISTED).map(listed) }
          : {}),
        ...(message.added.length > 0 ? { added: message.added.map((item) => item.webhook.name) } : {}),
        samples: message.samples,
        incident: message.incident,
        idempotencyKey: message.idempotencyKey,
      },
    },
    client: "Messaging Hub Webhook Console",
    client_url: link,
    links: [{ href: link, text: message.webhook ? "Open the webhook in the console" : "Open the console" }],
  };
}
