import { isAppError } from "@/lib/server/app-error";
import { defineRoute } from "@/lib/server/http/route";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { replaceKey } from "@/lib/server/session/applications";
import { summaryOf } from "@/lib/server/session/page-application";
import { sessionDataOf } from "@/lib/server/session/session";
import { handOverKey } from "@/lib/server/watch/hand-over";
import { watchStore } from "@/lib/server/watch/store";
import { replaceKeySchema } from "@/lib/domain/inputs/application";
import { checkNewKey } from "@/app/api/applications/check-key";
import { NEW_API_KEY_LABEL } from "@/lib/domain/inputs/api-key";

/**
 * Hands the new key to the application's watches when the watch store holds its old key
 * (rejected or not): the new key must read every watched webhook, else the replacement is
 * refused on `apiKey` and nothing changes. Answers how many watches moved, 0 when none are
 * stored, or null when the store does not answer: the key is replaced all the same (the live
 * API does not need the store), and the Overview offers the hand-over once the store is back.
 */
async function handOverWatches(app: string, apiKey: string): Promise<number | null> {
  let watched: number;
  try {
    const store = await watchStore();
    watched = (await store.keyStates([app])).length > 0 ? (await store.listWatches([app])).length : 0;
  } catch (error) {
    if (isAppError(error) && error.code === "store_unavailable") return null;
    throw error;
  }
  if (watched > 0) await handOverKey(app, apiKey);
  return watched;
}

/**
 * Replaces an application's key `{ app, apiKey }` (after a rotation): checked with the hub first,
 * handed over to the application's watches, then kept, and the "key rejected" mark goes. Its id
 * follows the new key.
 */
export const POST = defineRoute({
  body: replaceKeySchema,
  rateLimit: signInLimiter,
  async handle({ body, session, hub }) {
    const next = replaceKey(sessionDataOf(await session.state()), body.app, body.apiKey);
    await checkNewKey(hub(body.apiKey), NEW_API_KEY_LABEL);
    const watchesHandedOver = await handOverWatches(body.app, body.apiKey);
    await session.save(next);
    const replaced = next.applications.find((app) => app.apiKey === body.apiKey)!;
    return Response.json({ application: summaryOf(replaced), watchesHandedOver });
  },
});
