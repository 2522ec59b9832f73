import { isAppError } from "@/lib/server/app-error";
import { listWatches } from "@/lib/server/watch/watches";
import { withStore } from "@/lib/server/store/context";
import type { RouteInput } from "@/lib/server/http/route";
import { replaceKey } from "@/lib/server/session/applications";
import { summaryOf } from "@/lib/server/session/page-application";
import { sessionDataOf } from "@/lib/server/session/session";
import { handOverKey, handOverPlan } from "@/lib/server/watch/hand-over";

import type { output } from "zod/v4/core";
import { NEW_API_KEY_LABEL } from "@/lib/domain/inputs/api-key";
import type { keyHandOverSchema } from "@/lib/domain/inputs/hand-over";
import { checkNewKey } from "@/app/api/applications/check-key";

type Input = RouteInput<undefined, undefined, output<typeof keyHandOverSchema>>;

/** How many webhooks the store watches for `app`; null when the store does not answer and is not required. */
async function watchedBy(app: string, storeRequired: boolean): Promise<number | null> {
  try {
    return (await withStore((ctx) => listWatches(ctx, [app]))).length;
  } catch (error) {
    if (!storeRequired && isAppError(error) && error.code === "store_unavailable") return null;
    throw error;
  }
}

/**
 * Replace key and Hand over key `{ app, apiKey, keepDestinations? }`: the session must hold `app`
 * (else not found), the hub must accept the new key, and when the store watches webhooks of `app`
 * the new key must read every one of them (else 400 on `apiKey`, and nothing changes). Then:
 * - while the store keeps something for `app` and `keepDestinations` is absent, the answer is
 *   `{ handOver }`, the list of what would move (HandOverPlan), and nothing changes;
 * - with `keepDestinations`, it moves (the destinations not named are removed) and the session's
 *   key is replaced: `{ application, watchesHandedOver, handedOver }`;
 * - when the store keeps nothing, the key is replaced at once. When the store does not answer,
 *   `storeRequired` refuses (Hand over key), else the key is replaced all the same and
 *   `watchesHandedOver` is null (the live API does not need the store).
 */
export async function replaceAndHandOver(
  { body, session, hub }: Input,
  { storeRequired }: { storeRequired: boolean },
): Promise<Response> {
  const next = replaceKey(sessionDataOf(await session.state()), body.app, body.apiKey);
  await checkNewKey(hub(body.apiKey), NEW_API_KEY_LABEL);
  const watched = await watchedBy(body.app, storeRequired);
  let handedOver = null;
  if (watched) {
    if (!body.keepDestinations) return Response.json({ handOver: await handOverPlan(body.app, body.apiKey) });
    handedOver = await handOverKey(body.app, body.apiKey, body.keepDestinations);
  }
  await session.save(next);
  const replaced = next.applications.find((app) => app.apiKey === body.apiKey)!;
  return Response.json({ application: summaryOf(replaced), watchesHandedOver: watched, handedOver });
}
