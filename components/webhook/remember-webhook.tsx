"use client";

import { useEffect } from "react";
import { rememberWebhook } from "@/lib/browser/local-store";

/** Adds the webhook to "Opened recently" under the page's application (in this browser only). */
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
  useEffect(() => {
    rememberWebhook(app, { id, endpoint, eventType });
  }, [app, id, endpoint, eventType]);
  return null;
}
