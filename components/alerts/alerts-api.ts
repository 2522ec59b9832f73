import { apiRequest } from "@/lib/browser/api";
import type { DeliveryView, DestinationView } from "@/lib/domain/alerts/destinations";
import type { RuleSettings } from "@/lib/domain/alerts/rules";
import type { WebhookAlertSettings } from "@/lib/domain/alerts/webhook-alert-settings";
import type { AddDestination } from "@/lib/domain/inputs/alert-destination";
import type { WebhookAlertSettingsInput } from "@/lib/domain/inputs/alert-rules";

/**
 * The browser's calls of the alert routes (`/api/alerts/**`), each under the page's application
 * (`apiRequest` adds its `?app=`).
 */

export const alertKeys = {
  destinations: ["alerts", "destinations"] as const,
  deliveries: ["alerts", "deliveries"] as const,
};

export async function fetchDestinations(signal?: AbortSignal): Promise<DestinationView[]> {
  return (await apiRequest<{ destinations: DestinationView[] }>("/api/alerts/destinations", { signal }))
    .destinations;
}

export async function fetchDeliveries(signal?: AbortSignal): Promise<DeliveryView[]> {
  return (await apiRequest<{ deliveries: DeliveryView[] }>("/api/alerts/deliveries", { signal })).deliveries;
}

export function addDestination(
  input: AddDestination,
): Promise<{ destination: DestinationView; signingSecret: string | null }> {
  return apiRequest("/api/alerts/destinations", { method: "POST", body: input });
}

const destinationPath = (id: string, rest = "") =>
  `/api/alerts/destinations/${encodeURIComponent(id)}${rest}`;

export async function removeDestination(id: string): Promise<void> {
  await apiRequest(destinationPath(id), { method: "DELETE" });
}

export async function sendTestAlert(id: string): Promise<DeliveryView> {
  return (await apiRequest<{ delivery: DeliveryView }>(destinationPath(id, "/test"), { method: "POST" }))
    .delivery;
}

export const ruleKeys = {
  application: ["alerts", "rules"] as const,
  webhook: (webhookId: string) => ["alerts", "rules", webhookId] as const,
};

export async function fetchRules(signal?: AbortSignal): Promise<RuleSettings> {
  return (await apiRequest<{ rules: RuleSettings }>("/api/alerts/rules", { signal })).rules;
}

export async function saveRules(rules: RuleSettings): Promise<RuleSettings> {
  return (await apiRequest<{ rules: RuleSettings }>("/api/alerts/rules", { method: "PUT", body: rules }))
    .rules;
}

const webhookRulesPath = (webhookId: string) => `/api/watches/${encodeURIComponent(webhookId)}/alert-rules`;

export async function fetchWebhookAlerts(
  webhookId: string,
  signal?: AbortSignal,
): Promise<WebhookAlertSettings> {
  return (await apiRequest<{ settings: WebhookAlertSettings }>(webhookRulesPath(webhookId), { signal }))
    .settings;
}

export async function changeWebhookAlerts(
  webhookId: string,
  change: WebhookAlertSettingsInput,
): Promise<WebhookAlertSettings> {
  return (
    await apiRequest<{ settings: WebhookAlertSettings }>(webhookRulesPath(webhookId), {
      method: "PUT",
      body: change,
    })
  ).settings;
}
