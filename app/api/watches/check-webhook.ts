import "server-only";
import type { Webhook } from "@/lib/domain/hub-schemas";
import { AppError, isAppError } from "@/lib/server/app-error";
import { getWebhook, type HubCall } from "@/lib/server/hub/client";
import type { WebhookId } from "@/lib/server/hub/path-params";

/**
 * Reads a webhook with the application's key before it is watched: the hub's answer is the proof
 * that the key reads it. A 404 is the person's input that is wrong: refused with the hub's reason
 * on the `webhookId` field. A rejected key (401) and any other failure are thrown as they are.
 */
export async function checkWebhook(call: HubCall, webhookId: WebhookId): Promise<Webhook> {
  try {
    return await getWebhook(call, webhookId);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") {
      const message = `${error.message} Nothing was stored.`;
      throw new AppError("bad_request", message, { fields: { webhookId: [message] } });
    }
    throw error;
  }
}
