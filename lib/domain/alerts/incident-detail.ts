/**
 * An incident's `detail` as stored (alert_incidents.detail, JSON): the conditions that hold, on
 * which webhook, what its alerts have told, whether its alert is held and why, and, once
 * resolved, the recovery sentence. Plain data, safe for client components (the incidents list
 * reads it).
 */
import type { Condition, Told } from "@/lib/domain/alerts/conditions";
import type { AlertSummaryItem, AlertWebhook } from "@/lib/domain/alerts/message";

export interface IncidentDetail {
  /**
   * What holds, in RULE_IDS order: a webhook's conditions, the rejected key's, or a summary's own
   * (rule "summary", over its webhooks). Kept current while it fires; once resolved, what held last.
   */
  conditions: Condition[];
  /** When the trouble began: the earliest start of any condition the incident has listed. */
  since: number | null;
  /** The webhook as it was watched; null for application-wide incidents and summaries. */
  webhook: AlertWebhook | null;
  /** The webhook's previous incident resolved within the cooldown: its alert waits until then. */
  cooldownUntil: number | null;
  /** Why its alert is not sent yet, as last seen ("Held until …: the webhook is snoozed."); null when not held. */
  held: string | null;
  /** What its alerts told so far (the firing alert and its updates); null until its own firing alert went out. */
  told: Told | null;
  /** Updates sent so far: each one's idempotency key is numbered. */
  updates: number;
  /** A summary's webhooks, worst first, as its last alert told them. */
  webhooks: AlertSummaryItem[];
  /** A summary's last alert told the hub failing (the watch cannot read most of them), not their endpoints. */
  hubFailing: boolean;
  /** Once resolved: "recovered after 37 failures, 42 minutes". */
  recovery: string | null;
}

export function parseDetail(json: string): IncidentDetail {
  const parsed = JSON.parse(json) as Partial<IncidentDetail>;
  return {
    conditions: Array.isArray(parsed.conditions) ? parsed.conditions : [],
    since: parsed.since ?? null,
    webhook: parsed.webhook ?? null,
    cooldownUntil: parsed.cooldownUntil ?? null,
    held: parsed.held ?? null,
    told: parsed.told ?? null,
    updates: parsed.updates ?? 0,
    webhooks: parsed.webhooks ?? [],
    hubFailing: parsed.hubFailing ?? false,
    recovery: parsed.recovery ?? null,
  };
}
