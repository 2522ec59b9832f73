import { apiRequest } from "@/lib/browser/api";
import type { MaintenanceWindowInput } from "@/lib/domain/inputs/maintenance";
import type { MaintenanceWindowView } from "@/lib/domain/maintenance/view";

/**
 * The browser's calls of the maintenance routes (`/api/maintenance/**`), each under the page's
 * application (`apiRequest` adds its `?app=`).
 */

export const maintenanceKeys = {
  /** The application's windows (null), or one webhook's with its application's. */
  of: (webhookId: string | null) => ["maintenance", webhookId ?? "application"] as const,
  all: ["maintenance"] as const,
};

export async function fetchWindows(
  webhookId: string | null,
  signal?: AbortSignal,
): Promise<MaintenanceWindowView[]> {
  const query = webhookId ? `?webhookId=${encodeURIComponent(webhookId)}` : "";
  return (await apiRequest<{ windows: MaintenanceWindowView[] }>(`/api/maintenance${query}`, { signal }))
    .windows;
}

export async function addWindow(input: MaintenanceWindowInput): Promise<MaintenanceWindowView> {
  return (
    await apiRequest<{ window: MaintenanceWindowView }>("/api/maintenance", { method: "POST", body: input })
  ).window;
}

export async function removeWindow(id: string): Promise<void> {
  await apiRequest(`/api/maintenance/${encodeURIComponent(id)}`, { method: "DELETE" });
}
