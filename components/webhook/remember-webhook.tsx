"use client";

import { useEffect } from "react";
import { useAfterLoad } from "@/lib/browser/use-after-load";

/**
 * Adds the webhook to "Opened recently" under the page's application (in this browser only),
 * once the page has loaded: the store's code is a chunk of its own, not the page's.
 */
export function RememberWebhook({
  app,
  id,
  endpoint,
  eventType,
}: {
  app: string;
  id: string;
  endpoint: string;
  eventType: string;
}) {
  const afterLoad = useAfterLoad();
  useEffect(() => {
    if (!afterLoad) return;
    void import("@/lib/browser/local-store").then(({ rememberWebhook }) =>
      rememberWebhook(app, { id, endpoint, eventType }),
    );
  }, [afterLoad, app, id, endpoint, eventType]);
  return null;
}
