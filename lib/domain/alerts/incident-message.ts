/**
 * The alert message of an incident: firing, resolved (with its recovery sentence) or a summary of
 * many webhooks at once. Pure: the idempotency key comes from the incident's id and the kind, so
 * every instance that builds the same alert builds the same key. The cause and the customer's
 * fix are the status code's diagnosis (status-meaning.ts), or the rule's own when it has no code.
 * Each message is redacted as it is built (`redactMessage`), with the operator's patterns.
 */
import type { Breach, CodeCount } from "@/lib/domain/alerts/evaluate";
import {
  redactMessage,
  type AlertMessage,
  type AlertSample,
  type AlertSummaryItem,
  type AlertWebhook,
} from "@/lib/domain/alerts/message";
import { RULE_NAMES, type IncidentRule } from "@/lib/domain/alerts/incidents";
import { statusMeaning } from "@/lib/domain/status-meaning";

/** The incident as its messages need it. */
export interface IncidentFacts {
  id: string;
  rule: IncidentRule;
  application: { id: string; name: string };
  /** null for an application-wide incident (a rejected key) and for a summary. */
  webhook: AlertWebhook | null;
  breach: Breach;
  /** When the incident opened (its `since` when the breach has none). */
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

const RULE_DIAGNOSIS: Record<IncidentRule, { cause: string; fix: string }> = {
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

function diagnosis(rule: IncidentRule, codes: readonly CodeCount[]) {
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

/** What every message of an incident says the same way: its key, rule, subject, counts, start and links. */
function incidentMessage(
  incident: IncidentFacts,
  kind: "firing" | "resolved" | "summary",
  origin: MessageContext,
  now: number,
) {
  const { breach } = incident;
  return {
    idempotencyKey: `${incident.id}.${kind === "resolved" ? "resolved" : "firing"}`,
    kind,
    at: new Date(now).toISOString(),
    rule: { id: incident.rule, name: RULE_NAMES[incident.rule] },
    application: incident.application,
    webhook: incident.webhook,
    counts: { failures: breach.failures, attempts: breach.attempts },
    codes: breach.codes,
    since: iso(breach.since ?? incident.openedAt),
    headline: breach.headline,
    links: links(origin, incident.application.id, incident.webhook?.id ?? null),
  };
}

/** The alert that an incident fired. */
export function firingMessage(
  incident: IncidentFacts,
  samples: AlertSample[],
  context: MessageContext,
  now: number,
): AlertMessage {
  return redactMessage(
    {
      ...incidentMessage(incident, "firing", context, now),
      webhooks: [],
      samples,
      ...diagnosis(incident.rule, incident.breach.codes),
    },
    { patterns: context.redactPatterns },
  );
}

/** The notice that an incident cleared: "recovered after 37 failures, 42 minutes". */
export function resolvedMessage(
  incident: IncidentFacts,
  failuresDuring: number,
  context: MessageContext,
  now: number,
  webhooks: AlertSummaryItem[] = [],
): AlertMessage {
  const since = incident.breach.since ?? incident.openedAt;
  const base = incidentMessage(incident, "resolved", context, now);
  return redactMessage(
    {
      ...base,
      webhooks,
      counts: { ...base.counts, failures: failuresDuring },
      samples: [],
      headline: `${recoveryText(failuresDuring, now - since)} (${incident.breach.headline})`,
      likelyCause: "Nothing is failing now: the rule no longer holds.",
      customerFix:
        "Nothing to fix now. Deliveries that failed meanwhile are not sent again: the hub has no retry.",
    },
    { patterns: context.redactPatterns },
  );
}

/** The one alert for many webhooks failing at once, worst first inside; `hubFailing` when none of them can be read. */
export function summaryMessage(
  incident: IncidentFacts,
  webhooks: AlertSummaryItem[],
  hubFailing: boolean,
  context: MessageContext,
  now: number,
): AlertMessage {
  return redactMessage(
    {
      ...incidentMessage(incident, "summary", context, now),
      webhooks,
      samples: [],
      ...diagnosis(hubFailing ? "watchUnreadable" : "summary", incident.breach.codes),
    },
    { patterns: context.redactPatterns },
  );
}

/** A summary item's link to its webhook's page. */
export function webhookLink(origin: MessageContext, appId: string, webhookId: string): string {
  return links(origin, appId, webhookId).webhook!;
}
