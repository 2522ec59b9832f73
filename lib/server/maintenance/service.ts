import "server-only";
import type { MaintenanceWindowInput } from "@/lib/domain/inputs/maintenance";
import type { MaintenanceWindowView } from "@/lib/domain/maintenance/view";
import { withStore } from "@/lib/server/store/context";
import { addWindow, listWindows, removeWindow } from "@/lib/server/maintenance/windows-store";

/**
 * What the maintenance routes do, for one application of the session: list its windows (or one
 * watched webhook's, with its application's), add one, remove one. Input is checked by the
 * routes' schemas first; a database failure is `store_unavailable`.
 */

export function listMaintenance(appId: string, webhookId: string | null): Promise<MaintenanceWindowView[]> {
  return withStore((ctx) => listWindows(ctx, appId, webhookId));
}

export function addMaintenance(appId: string, input: MaintenanceWindowInput): Promise<MaintenanceWindowView> {
  return withStore((ctx) => addWindow(ctx, appId, input));
}

export function removeMaintenance(appId: string, windowId: string): Promise<void> {
  return withStore((ctx) => removeWindow(ctx, appId, windowId));
}
