import { apiRequest } from "@/lib/browser/api";
import type { DeliveryView, DestinationView } from "@/lib/domain/alerts/destinations";
import type { AddDestination } from "@/lib/domain/inputs/alert-destination";

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
