/**
 * Where alerts go: the kinds of destination, their names as the form labels them, and what of a
 * destination and of a delivery the console shows (never a secret whole: `target` is masked).
 */
export const DESTINATION_KINDS = ["slack", "webhook", "email", "pagerduty", "teams", "discord"] as const;

/** Destinations one application may have unless ALERTS_MAX_DESTINATIONS says otherwise. */
export const DEFAULT_MAX_DESTINATIONS = 20;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

export const DESTINATION_KIND_NAMES: Record<DestinationKind, string> = {
  slack: "Slack incoming webhook",
  webhook: "Signed JSON webhook",
  email: "Email",
  pagerduty: "PagerDuty (Events API v2)",
  teams: "Microsoft Teams (Workflows)",
  discord: "Discord webhook",
};

/** The kinds whose address is one https:// URL a person pastes. */
export const URL_KINDS = ["slack", "webhook", "teams", "discord"] as const;
export type UrlKind = (typeof URL_KINDS)[number];

/** PagerDuty's Events API v2 by region: where an account's events go (docs/alerts.md). */
export const PAGERDUTY_REGIONS = ["us", "eu"] as const;
export type PagerDutyRegion = (typeof PAGERDUTY_REGIONS)[number];
export const PAGERDUTY_REGION_NAMES: Record<PagerDutyRegion, string> = { us: "US", eu: "EU" };
export const PAGERDUTY_EVENTS_URLS: Record<PagerDutyRegion, string> = {
  us: "https://events.pagerduty.com/v2/enqueue",
  eu: "https://events.eu.pagerduty.com/v2/enqueue",
};

/** Where a PagerDuty destination's events go: the operator's ALERTS_PAGERDUTY_EVENTS_URL, else its region's. */
export function pagerDutyEventsUrl(region: PagerDutyRegion, override: string | null): string {
  return override ?? PAGERDUTY_EVENTS_URLS[region];
}

/** A destination as the console shows it. */
export interface DestinationView {
  id: string;
  appId: string;
  kind: DestinationKind;
  label: string;
  /** Where it goes, masked: `https://hooks.slack.com/…/••••1a2b`, `o•••@example.com`, `PagerDuty EU, key ••••1a2b`. */
  target: string;
  createdAt: string;
}

/** pending: in the outbox, waiting for its first or next attempt; sending: an instance is attempting it now. */
export const DELIVERY_STATES = ["pending", "sending", "delivered", "failed", "refused"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** One alert's delivery to one destination: the attempts so far and how the last one went. */
export interface DeliveryView {
  id: string;
  destinationId: string;
  destinationLabel: string;
  kind: DestinationKind;
  idempotencyKey: string;
  alertKind: string;
  title: string;
  state: DeliveryState;
  attempts: number;
  /** The receiver's HTTP status (or SMTP reply code) of the last attempt; null when none answered. */
  statusCode: number | null;
  /** The start of the receiver's answer, capped. */
  response: string;
  error: string | null;
  /** When the next attempt is due, while the delivery waits in the outbox (`pending`); null otherwise. */
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Longest response snippet kept per delivery. */
export const RESPONSE_SNIPPET_MAX = 500;

/** Shows the last four characters of a secret part, the rest as dots. */
function tail(secret: string): string {
  return secret.length <= 8 ? "••••" : `••••${secret.slice(-4)}`;
}

/** A URL with only its origin and the last characters of the rest shown. */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const rest = `${parsed.pathname}${parsed.search}`;
    return rest === "/" || rest === "" ? parsed.origin : `${parsed.origin}/…/${tail(rest)}`;
  } catch {
    return tail(url);
  }
}

/** A PagerDuty routing key, masked, with its region: `PagerDuty EU, key ••••1a2b`. */
export function maskRoutingKey(routingKey: string, region: PagerDutyRegion): string {
  return `PagerDuty ${PAGERDUTY_REGION_NAMES[region]}, key ${tail(routingKey)}`;
}

/** An address with its first character and its domain shown. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf("@");
  return at < 1 ? tail(address) : `${address[0]}•••${address.slice(at)}`;
}
