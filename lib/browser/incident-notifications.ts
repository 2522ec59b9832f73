import { useSyncExternalStore } from "react";
import { incidentNotification, notificationsDue, type IncidentsAnswer } from "@/lib/domain/alerts/incidents";
import { readNotifiedIncidents, rememberNotifiedIncidents } from "@/lib/browser/local-store";

/**
 * Browser notifications of alert incidents: whether this browser allows them, asking for it, and
 * raising one per incident that fires (and "Recovered" when it clears). The record in
 * localStorage and each notification's tag (the incident's id) keep two tabs or a reload from
 * repeating one.
 */

export type NotificationPermissionState = NotificationPermission | "unsupported";

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  let status: PermissionStatus | undefined;
  let gone = false;
  // The person may change the permission in the browser's site settings while the page is open.
  navigator.permissions
    ?.query({ name: "notifications" })
    .then((found) => {
      if (gone) return;
      status = found;
      found.addEventListener("change", listener);
    })
    .catch(() => undefined);
  return () => {
    gone = true;
    listeners.delete(listener);
    status?.removeEventListener("change", listener);
  };
}

function currentPermission(): NotificationPermissionState {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

/** The browser's answer for this console; null on the server and while hydrating. */
export function useNotificationPermission(): NotificationPermissionState | null {
  return useSyncExternalStore(subscribe, currentPermission, () => null);
}

/** Asks the browser (it shows its own prompt); the hooks above read the answer. */
export async function askNotificationPermission(): Promise<void> {
  await Notification.requestPermission();
  for (const listener of listeners) listener();
}

/** Records the incidents of `answer` and, when allowed, notifies those this browser has not notified yet. */
export function notifyIncidents(answer: IncidentsAnswer): void {
  const before = readNotifiedIncidents();
  const { due, seen } = notificationsDue(answer, before);
  if (before === null || due.length > 0) rememberNotifiedIncidents(seen);
  if (currentPermission() !== "granted") return;
  for (const incident of due) {
    const { title, body } = incidentNotification(incident);
    const notification = new Notification(title, { body, tag: incident.id });
    notification.onclick = () => {
      window.focus();
      window.location.assign(incident.href);
    };
  }
}
