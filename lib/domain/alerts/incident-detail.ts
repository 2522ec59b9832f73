/**
 * An incident's `detail` as stored (alert_incidents.detail, JSON): what fired, on which webhook,
 * whether its alert is held and why, and, once resolved, the recovery sentence. Plain data, safe
 * for client components (the incidents list reads it).
 */
import type { Breach } from "@/lib/domain/alerts/evaluate";
import type { AlertSummaryItem, AlertWebhook } from "@/lib/domain/alerts/message";

export interface IncidentDetail {
  /** The rule's breach, updated while it fires (counts and codes grow; `since` stays). */
  breach: Breach;
  /** The webhook as it was watched; null for application-wide incidents and summaries. */
  webhook: AlertWebhook | null;
  /** The same rule's previous incident here resolved within the cooldown: its alert waits until then. */
  cooldownUntil: number | null;
  /** Why its alert is not sent yet, as last seen ("Held until …: the webhook is snoozed."); null when not held. */
  held: string | null;
  /** A summary's webhooks, worst first, as its alert told them. */
  webhooks: AlertSummaryItem[];
  /** A summary's alert told the hub failing (the watch cannot read most of them), not their endpoints. */
  hubFailing: boolean;
  /** Once resolved: "recovered after 37 failures, 42 minutes". */
  recovery: string | null;
}

export function parseDetail(json: string): IncidentDetail {
  const parsed = JSON.parse(json) as Partial<IncidentDetail>;
  return {
    breach: parsed.breach ?? { headline: "", since: null, failures: 0, attempts: 0, codes: [] },
    webhook: parsed.webhook ?? null,
    cooldownUntil: parsed.cooldownUntil ?? null,
    held: parsed.held ?? null,
    webhooks: parsed.webhooks ?? [],
    hubFailing: parsed.hubFailing ?? false,
    recovery: parsed.recovery ?? null,
  };
}
