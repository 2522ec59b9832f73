import "server-only";
import type { Watch } from "@/lib/domain/watch/overview";
import { fieldMessage } from "@/lib/domain/inputs/field-message";
import { NEW_API_KEY_LABEL } from "@/lib/domain/inputs/api-key";
import { AppError, isAppError } from "@/lib/server/app-error";
import { getWebhook } from "@/lib/server/hub/client";
import type { WebhookId } from "@/lib/server/hub/path-params";
import { watchStore } from "@/lib/server/watch/store";

/** Applications whose key no longer serves that one key entering a session is tried against. */
const CARRY_OVER_MAX = 10;

/**
 * Handing a new key over to a watched application whose key was rotated or rejected: checks
 * with the hub that the new key reads every webhook the application watches (else
 * `bad_request` on `apiKey`, naming the first it cannot read, and nothing changes), then moves
 * the watches, their names and history to the new key (`WatchStore.replaceKey`).
 */
export async function handOverKey(oldAppId: string, newApiKey: string): Promise<{ appId: string }> {
  const store = await watchStore();
  const miss = await firstUnread(newApiKey, await store.listWatches([oldAppId]));
  if (miss) {
    const message = fieldMessage(
      NEW_API_KEY_LABEL,
      miss.code === "unauthorized"
        ? "the Messaging Hub rejected this key. Paste the application's current key."
        : `this key does not read the watched webhook "${miss.watch.name}" (${miss.watch.webhookId}): it belongs to another application. ` +
            "Paste the key of the application that owns the watched webhooks.",
    );
    throw new AppError("bad_request", message, { fields: { apiKey: [message] } });
  }
  return store.replaceKey(oldAppId, newApiKey);
}

/**
 * A key entering a session (sign-in, another application) takes over the watches of applications
 * whose stored key no longer serves, when it reads every webhook they watch: the same key after
 * SESSION_SECRET changed, or the application's new key after a rotation. Without this, nobody could
 * see those watches again. A store or hub that fails changes nothing and does not stop the sign-in.
 */
export async function carryOverWatches(apiKey: string): Promise<void> {
  try {
    const store = await watchStore();
    for (const appId of (await store.rejectedApplications()).slice(0, CARRY_OVER_MAX)) {
      const watches = await store.listWatches([appId]);
      // Another application's key fails on the first webhook: one hub call.
      if (watches.length === 0 || (await firstUnread(apiKey, watches))) continue;
      const moved = await store.replaceKey(appId, apiKey);
      console.info(
        `[console] ${watches.length} watches of application ${appId}, whose stored key no longer served, ` +
          `now poll with a key that reads them (application ${moved.appId})`,
      );
    }
  } catch (error) {
    console.warn(
      "[console] could not carry watches over to a key entering a session:",
      isAppError(error) ? error.message : error,
    );
  }
}

/** The first of these watches the key does not read (the hub answers 404 or 401), or null when it reads them all. */
async function firstUnread(
  apiKey: string,
  watches: readonly Watch[],
): Promise<{ watch: Watch; code: "not_found" | "unauthorized" } | null> {
  for (const watch of watches) {
    try {
      await getWebhook({ apiKey, keep: false }, watch.webhookId as WebhookId);
    } catch (error) {
      if (isAppError(error) && (error.code === "not_found" || error.code === "unauthorized"))
        return { watch, code: error.code };
      throw error;
    }
  }
  return null;
}
