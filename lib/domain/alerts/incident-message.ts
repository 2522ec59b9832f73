/**
 * The alert messages of an incident: firing, updated (worse, or a summary that webhooks joined),
 * recovered (with its recovery sentence), for a webhook's incident, an application's (its key
 * rejected) or a summary of many webhooks at once. Pure: the idempotency key comes from the
 * incident's id, the kind and the update's number, so every instance that builds the same alert
 * builds the same key. The cause and the customer's fix are the status code's diagnosis
 * (status-meaning.ts), or the leading condition's own when it has no code. Each message is
 * redacted as it is built (`redactMessage`), with the operator's patterns.
 */
import { conditionsHeadline, type Condition, type ConditionRule } from "@/lib/domain/alerts/conditions";
import type { CodeCount } from "@/lib/domain/alerts/evaluate";
import {
  ALERT_SCHEMA_VERSION,
  redactMessage,
  type AlertCondition,
  type AlertMessage,
  type AlertSample,
  type AlertSummaryItem,
  type AlertWebhook,
  type IncidentScope,
} from "@/lib/domain/alerts/message";
import { RULE_NAMES } from "@/lib/domain/alerts/incidents";
import { statusMeaning } from "@/lib/domain/status-meaning";

/** The incident as its messages need it. */
export interface IncidentFacts {
  id: string;
  scope: IncidentScope;
  application: { id: string; name: string };
  /** null for an application-wide incident (a rejected key) and for a summary. */
  webhook: AlertWebhook | null;
  /** What holds (what held last, once recovered), in RULE_IDS order; a summary's one condition is its own. */
  conditions: Condition[];
  /** When the trouble began; null when unknown (then when the incident opened). */
  since: number | null;
  /** When the incident opened. */
  openedAt: number;
}

/** Where the console is, for the links back, and the operator's REDACT_PATTERNS, masked in every alert. */
export interface MessageContext {
  origin: string;
  redactPatterns?: readonly string[];
}

const MINUTE = 60_000;

/** "42 minutes", "3 hours 5 minutes", "under a minute". */
export function durationText(ms: number): string {
  const minutes = Math.floor(ms / MINUTE);
  if (minutes < 1) return "under a minute";
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} hours` : `${hours} hours ${rest} minute${rest === 1 ? "" : "s"}`;
}

/** "recovered after 37 failures, 42 minutes" (the failures left out when there were none). */
export function recoveryText(failures: number, durationMs: number): string {
  const counted = failures > 0 ? `${failures} failure${failures === 1 ? "" : "s"}, ` : "";
  return `recovered after ${counted}${durationText(durationMs)}`;
}

const RULE_DIAGNOSIS: Record<ConditionRule, { cause: string; fix: string }> = {
  streak: {
    cause: "The endpoint keeps failing the hub's deliveries.",
    fix: "Look in the endpoint server's logs around the failures; the samples show what it answered.",
  },
  rate: {
    cause: "A large share of the endpoint's deliveries fail.",
    fix: "Look in the endpoint server's logs around the failures; the samples show what it answered.",
  },
  inactive: {
    cause:
      "The webhook was turned off (by someone, or by the hub after repeated failures): nothing is delivered while it is off.",
    fix:
      "Fix what made the deliveries fail, then turn the webhook on again. " +
      "Deliveries missed while it was off are not sent again: the hub has no retry.",
  },
  errorsJump: {
    cause: "The hub counted many new failed deliveries of this webhook in a short time.",
    fix: "Look in the endpoint server's logs for the same period; the console's table of this webhook shows each failure.",
  },
  silence: {
    cause:
      "No event reached this webhook for a while: the customer's system stopped sending, or the webhook is inactive.",
    fix: "Check that the customer's system still sends events of this webhook's type, and that the webhook is active.",
  },
  watchUnreadable: {
    cause:
      "The console cannot read this webhook from the hub: the hub is failing or unreachable, or the key was rotated. This is not the customer's endpoint.",
    fix: "Nothing for the customer to fix. Check the hub's status; if the key was rotated, sign in with the new key. The watch retries by itself.",
  },
  summary: {
    cause:
      "Many webhooks of this application began failing at once: a cause they share " +
      "(the hub, or a host or proxy in front of their endpoints) is more likely than each endpoint at once.",
    fix: "Start with the shared cause the codes point to; the console lists each webhook.",
  },
};

function diagnosis(rule: ConditionRule, codes: readonly CodeCount[]) {
  const top = codes[0];
  if (top && rule !== "watchUnreadable" && rule !== "silence" && rule !== "summary") {
    const meaning = statusMeaning(top.code);
    return { likelyCause: meaning.cause, customerFix: meaning.nextStep };
  }
  return { likelyCause: RULE_DIAGNOSIS[rule].cause, customerFix: RULE_DIAGNOSIS[rule].fix };
}

function links(links: MessageContext, appId: string, webhookId: string | null) {
  const app = `app=${encodeURIComponent(appId)}`;
  return {
    console: `${links.origin}/overview?${app}`,
    webhook: webhookId ? `${links.origin}/webhooks/${encodeURIComponent(webhookId)}?${app}` : null,
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const EMPTY_CONDITION: Condition = {
  rule: "summary",
  headline: "",
  since: null,
  failures: 0,
  attempts: 0,
  codes: [],
};

function alertCondition(condition: Condition): AlertCondition {
  return {
    rule: { id: condition.rule, name: RULE_NAMES[condition.rule] },
    headline: condition.headline,
    since: iso(condition.since),
    counts: { failures: condition.failures, attempts: condition.attempts },
    codes: condition.codes,
  };
}

/** Each alert's idempotency key: one per incident and kind, and per update its number. */
export function alertKey(incidentId: string, kind: "firing" | "recovered" | { update: number }): string {
  return typeof kind === "string" ? `${incidentId}.${kind}` : `${incidentId}.updated.${kind.update}`;
}

/**
 * What every message of an incident says the same way: its key, the incident, the conditions,
 * the subject, the counts and codes of the leading condition (the first: a failing streak before
 * a rate), the start and the links.
 */
function incidentMessage(
  incident: IncidentFacts,
  kind: "firing" | "recovered" | { update: number },
  context: MessageContext,
  now: number,
) {
  const lead = incident.conditions[0] ?? EMPTY_CONDITION;
  const summary = incident.scope === "summary";
  return {
    version: ALERT_SCHEMA_VERSION,
    idempotencyKey: alertKey(incident.id, kind),
    kind: typeof kind === "string" ? kind : ("updated" as const),
    at: new Date(now).toISOString(),
    incident: { id: incident.id, scope: incident.scope, openedAt: new Date(incident.openedAt).toISOString() },
    conditions: summary ? [] : incident.conditions.map(alertCondition),
    application: incident.application,
    webhook: incident.webhook,
    webhooks: [] as AlertSummaryItem[],
    added: [] as AlertSummaryItem[],
    counts: { failures: lead.failures, attempts: lead.attempts },
    codes: lead.codes,
    samples: [] as AlertSample[],
    since: iso(incident.since ?? incident.openedAt),
    headline: conditionsHeadline(incident.conditions),
    links: links(context, incident.application.id, incident.webhook?.id ?? null),
    ...diagnosis(lead.rule, lead.codes),
  };
}

/**
 * The alert that an incident of a webhook or an application fired (`update` absent), or, with
 * `update`, that it got worse: the number of that update.
 */
export function incidentAlert(
  incident: IncidentFacts,
  samples: AlertSample[],
  context: MessageContext,
  now: number,
  update?: number,
): AlertMessage {
  const kind = update === undefined ? "firing" : { update };
  return redactMessage(
    { ...incidentMessage(incident, kind, context, now), samples },
    { patterns: context.redactPatterns },
  );
}

/**
 * The notice that an incident ended: "recovered after 37 failures, 42 minutes", with the
 * conditions that held last; a summary's lists the webhooks that were in it.
 */
export function recoveredMessage(
  incident: IncidentFacts,
  failuresDuring: number,
  context: MessageContext,
  now: number,
  webhooks: AlertSummaryItem[] = [],
): AlertMessage {
  const base = incidentMessage(incident, "recovered", context, now);
  const since = incident.since ?? incident.openedAt;
  return redactMessage(
    {
      ...base,
      webhooks,
      counts: { ...base.counts, failures: failuresDuring },
      headline: `${recoveryText(failuresDuring, now - since)} (${base.headline})`,
      likelyCause: "Nothing is failing now: the webhook delivers again, or what held has cleared.",
      customerFix:
        "Nothing to fix now. Deliveries that failed meanwhile are not sent again: the hub has no retry.",
    },
    { patterns: context.redactPatterns },
  );
}

/**
 * The one alert for many webhooks failing at once, worst first inside (`hubFailing` when the
 * watch cannot read most of them); with `update`, the update that says which webhooks `added`.
 */
export function summaryMessage(
  incident: IncidentFacts,
  content: { webhooks: AlertSummaryItem[]; added: AlertSummaryItem[]; hubFailing: boolean },
  context: MessageContext,
  now: number,
  update?: number,
): AlertMessage {
  const base = incidentMessage(incident, update === undefined ? "firing" : { update }, context, now);
  return redactMessage(
    {
      ...base,
      webhooks: content.webhooks,
      added: content.added,
      ...diagnosis(content.hubFailing ? "watchUnreadable" : "summary", base.codes),
    },
    { patterns: context.redactPatterns },
  );
}

/** A summary item's link to its webhook's page. */
export function webhookLink(origin: MessageContext, appId: string, webhookId: string): string {
  return links(origin, appId, webhookId).webhook!;
}
