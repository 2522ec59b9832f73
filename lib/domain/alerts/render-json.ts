import type { AlertKind, AlertMessage } from "@/lib/domain/alerts/message";

/**
 * The body of the signed JSON webhook (docs/alerts.md documents it): the Standard Webhooks
 * envelope `{ type, timestamp, data }`, `type` being `alert.<kind>`, `data` the alert message.
 * The signature headers are added by the sender (lib/server/alerts/deliver.ts).
 */
export interface AlertPayload {
  type: `alert.${AlertKind}`;
  timestamp: string;
  data: AlertMessage;
}

export function renderJson(message: AlertMessage): AlertPayload {
  return { type: `alert.${message.kind}`, timestamp: message.at, data: message };
}
