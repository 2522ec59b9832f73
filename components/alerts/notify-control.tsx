"use client";

import { useState } from "react";
import {
  askNotificationPermission,
  useNotificationPermission,
  type NotificationPermissionState,
} from "@/lib/browser/incident-notifications";

const PERMISSION_TEXT: Record<NotificationPermissionState, string> = {
  default: "Each alert that fires then shows as a notification while the console is open in a tab.",
  granted:
    "Notifications are on in this browser: each alert that fires shows one while the console is open in a tab, and another when it recovers.",
  denied:
    "Notifications are blocked for this console in this browser. To allow them, open this site's settings " +
    "(the icon at the left of the address bar), set Notifications to Allow, then reload this page.",
  unsupported: "This browser cannot show notifications: keep a tab of the console open to see the banner.",
};

/** "Notify me in this browser": asks for the browser's permission and says plainly where it stands. */
export function NotifyControl() {
  const permission = useNotificationPermission();
  const [asking, setAsking] = useState(false);

  async function ask() {
    setAsking(true);
    try {
      await askNotificationPermission();
    } finally {
      setAsking(false);
    }
  }

  return (
    <div className="space-y-1 text-sm">
      {permission === "default" ? (
        <button type="button" className="btn btn-secondary" disabled={asking} onClick={() => void ask()}>
          Notify me in this browser
        </button>
      ) : null}
      <p role="status" className="text-zinc-700 dark:text-zinc-300">
        {permission ? PERMISSION_TEXT[permission] : null}
      </p>
    </div>
  );
}
