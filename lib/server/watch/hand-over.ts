import "server-only";
import { AppError, isAppError } from "@/lib/server/app-error";
import { getWebhook } from "@/lib/server/hub/client";
import type { WebhookId } from "@/lib/server/hub/path-params";
import { watchStore } from "@/lib/server/watch/store";

/**
 * Handing a new key over to a watched application whose key was rotated or rejected: checks
 * with the hub that the new key reads every webhook the application watches (else
 * `bad_request` on `apiKey`, naming the first it cannot read, and nothing changes), then moves
 * the watches, their names and history to the new key (`WatchStore.replaceKey`).
 */
export async function handOverKey(oldAppId: string, newApiKey: string): Promise<{ appId: string }> {
  const store = await watchStore();
  const watches = await store.listWatches([oldAppId]);
  for (const watch of watches) {
    try {
      await getWebhook({ apiKey: newApiKey, keep: false }, watch.webhookId as WebhookId);
    } catch (error) {
      if (!isAppError(error) || (error.code !== "not_found" && error.code !== "unauthorized")) throw error;
      const message =
        error.code === "unauthorized"
          ? "The Messaging Hub rejected this key. Paste the application's current key."
          : `This key does not read the watched webhook "${watch.name}" (${watch.webhookId}): it belongs to another application. ` +
            "Paste the key of the application that owns the watched webhooks.";
      throw new AppError("bad_request", message, { fields: { apiKey: [message] } });
    }
  }
  return store.replaceKey(oldAppId, newApiKey);
}
