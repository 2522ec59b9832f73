import type { DestinationKind } from "@/lib/domain/alerts/destinations";
import type { QuietHours } from "@/lib/domain/alerts/rules";
import { UNTIL_TURNED_ON } from "@/lib/domain/alerts/snooze";
import { formatCount } from "@/lib/domain/format-count";

/**
 * Handing what the console keeps for an application over to a new key (its old key was rotated,
 * revoked, or replaced): the watches with their names and history, the alert rules, snoozes and
 * quiet hours, and the alert destinations the person chooses to keep. Before anything is carried
 * the console lists it all (a HandOverPlan), and the person keeps or drops each destination: one
 * added with the old key, by whoever still held it, would otherwise go on receiving the alerts.
 */

/** A watched webhook, as the hand-over names it. */
export interface HandedWebhook {
  webhookId: string;
  name: string;
}

export interface HandOverPlan {
  /** The application the data is kept under (the console's id of its old key). */
  from: string;
  /** When the hub's rejection of the old key was recorded; null when it was not (a key replaced by hand). */
  rejectedAt: string | null;
  watches: HandedWebhook[];
  /** Each kept or dropped as the person chooses. */
  destinations: Array<{
    id: string;
    label: string;
    kind: DestinationKind;
    target: string;
    createdAt: string;
  }>;
  /** The application's own default rules (false: it uses the console's), and the webhooks with rules of their own. */
  rules: { defaults: boolean; webhooks: HandedWebhook[] };
  /** Snoozes still holding alerts, until when. */
  snoozes: Array<HandedWebhook & { until: string }>;
  quietHours: Array<HandedWebhook & { quietHours: QuietHours }>;
}

function names(webhooks: readonly HandedWebhook[]): string {
  return webhooks.map((webhook) => `"${webhook.name}"`).join(", ");
}

function count(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/**
 * What a plan carries besides the destinations, one line per kind, as the hand-over lists it
 * ("Watches: 2 webhooks: "Acme", "Bravo", with their names and history."), times as `time` writes
 * them. Every kind is named, carried or not, so nothing is left unsaid.
 */
export function handOverLines(plan: HandOverPlan, time: (iso: string) => string): string[] {
  const { watches, rules, snoozes, quietHours } = plan;
  const ruleParts = [
    ...(rules.defaults ? ["the application's own default rules"] : []),
    ...(rules.webhooks.length ? [`rules of their own on ${names(rules.webhooks)}`] : []),
  ];
  return [
    watches.length
      ? `Watches: ${count(watches.length, "webhook", "webhooks")}: ${names(watches)}, with their names and history.`
      : "Watches: none.",
    ruleParts.length
      ? `Alert rules: ${ruleParts.join("; ")}.`
      : "Alert rules: none of its own (the console's defaults).",
    snoozes.length
      ? `Snoozes: ${snoozes.map((s) => `"${s.name}" until ${s.until === UNTIL_TURNED_ON ? "turned back on" : time(s.until)}`).join(", ")}.`
      : "Snoozes: none.",
    quietHours.length
      ? `Quiet hours: ${quietHours.map((q) => `"${q.name}" ${q.quietHours.start}–${q.quietHours.end} (${q.quietHours.zone})`).join(", ")}.`
      : "Quiet hours: none.",
  ];
}
