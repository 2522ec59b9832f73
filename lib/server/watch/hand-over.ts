import "server-only";
import { keyStates, listWatches, rejectedApplications, replaceKey } from "@/lib/server/watch/watches";
import { withStore } from "@/lib/server/store/context";
import type { Watch } from "@/lib/domain/watch/overview";
import { activeSnooze } from "@/lib/domain/alerts/snooze";
import { fieldMessage } from "@/lib/domain/inputs/field-message";
import { NEW_API_KEY_LABEL } from "@/lib/domain/inputs/api-key";
import type { HandOverPlan } from "@/lib/domain/watch/hand-over";
import { KEEP_DESTINATIONS_LABEL } from "@/lib/domain/inputs/hand-over";
import { AppError, isAppError } from "@/lib/server/app-error";
import { listDestinations } from "@/lib/server/alerts/destinations";
import { hasOwnRules, webhookOverrides } from "@/lib/server/alerts/rules-store";
import { getWebhook } from "@/lib/server/hub/client";
import type { WebhookId } from "@/lib/server/hub/path-params";
import { applicationId } from "@/lib/server/session/key-hash";

/** Applications whose key no longer serves that one key entering a session is tried against. */
const CARRY_OVER_MAX = 10;

/**
 * Handing an application's watches and alerts over to a new key (lib/domain/watch/hand-over.ts):
 * the key must read every watched webhook, the proof it is the same application's.
 */

/** What the console keeps for `from`: what a hand-over would carry. */
async function planOf(from: string, now = Date.now()): Promise<HandOverPlan> {
  const [watches, states] = await withStore((ctx) =>
    Promise.all([listWatches(ctx, [from]), keyStates(ctx, [from])]),
  );
  const named = new Map(watches.map((watch) => [watch.webhookId, watch.name]));
  const handed = (webhookId: string) => ({ webhookId, name: named.get(webhookId) ?? webhookId });
  const [destinations, defaults, overrides] = await withStore((ctx) =>
    Promise.all([listDestinations(ctx, from), hasOwnRules(ctx, from), webhookOverrides(ctx, from)]),
  );
  const own = [...overrides].filter(([webhookId]) => named.has(webhookId));
  return {
    from,
    rejectedAt: states[0]?.rejectedAt ?? null,
    watches: watches.map((watch) => handed(watch.webhookId)),
    destinations: destinations.map(({ id, label, kind, target, createdAt }) => ({
      id,
      label,
      kind,
      target,
      createdAt,
    })),
    rules: {
      defaults,
      webhooks: own
        .filter(([, override]) => Object.keys(override.rules).length > 0)
        .map(([id]) => handed(id)),
    },
    snoozes: own.flatMap(([id, override]) => {
      const until = activeSnooze(override.snoozedUntil, now);
      return until ? [{ ...handed(id), until }] : [];
    }),
    quietHours: own.flatMap(([id, { quietHours }]) => (quietHours ? [{ ...handed(id), quietHours }] : [])),
  };
}

/** The 400 on the new key's field when it does not read a watched webhook of `from`. */
function unread(miss: { watch: Watch; code: "not_found" | "unauthorized" }): AppError {
  const message = fieldMessage(
    NEW_API_KEY_LABEL,
    miss.code === "unauthorized"
      ? "the Messaging Hub rejected this key. Paste the application's current key."
      : `this key does not read the watched webhook "${miss.watch.name}" (${miss.watch.webhookId}): it belongs to another application. ` +
          "Paste the key of the application that owns the watched webhooks.",
  );
  return new AppError("bad_request", message, { fields: { apiKey: [message] } });
}

/** What handing `from` over to `newApiKey` would carry; `bad_request` naming a webhook the key cannot read. */
export async function handOverPlan(from: string, newApiKey: string): Promise<HandOverPlan> {
  const miss = await firstUnread(newApiKey, await withStore((ctx) => listWatches(ctx, [from])));
  if (miss) throw unread(miss);
  return planOf(from);
}

/**
 * Hands `from` over to `newApiKey` (checked as `handOverPlan`): all the plan lists moves, but the
 * destinations not in `keepDestinations`, which go. Returns the plan as carried.
 */
export async function handOverKey(
  from: string,
  newApiKey: string,
  keepDestinations: readonly string[],
): Promise<HandOverPlan> {
  return carry(await handOverPlan(from, newApiKey), newApiKey, keepDestinations);
}

async function carry(
  plan: HandOverPlan,
  newApiKey: string,
  keepDestinations: readonly string[],
): Promise<HandOverPlan> {
  const ids = new Set(plan.destinations.map((destination) => destination.id));
  if (keepDestinations.some((id) => !ids.has(id))) {
    const message = fieldMessage(
      KEEP_DESTINATIONS_LABEL,
      "one of them is not among the application's destinations any more (it was removed meanwhile). Look at the list again and choose.",
    );
    throw new AppError("bad_request", message, { fields: { keepDestinations: [message] } });
  }
  const keep = new Set(keepDestinations);
  const drop = plan.destinations.filter((destination) => !keep.has(destination.id)).map(({ id }) => id);
  await withStore((ctx) => replaceKey(ctx, plan.from, newApiKey, drop));
  return { ...plan, destinations: plan.destinations.filter((destination) => keep.has(destination.id)) };
}

/**
 * What a key entering a session may take over (`takeable`): the same key after SESSION_SECRET
 * changed, or an application's new key after a rotation. Nothing moves until the person chooses
 * (`carryOver`); a store or hub that fails offers nothing and does not stop the sign-in.
 */
export async function handOverOffers(apiKey: string): Promise<HandOverPlan[]> {
  try {
    const offers: HandOverPlan[] = [];
    for (const from of await takeable(apiKey)) offers.push(await planOf(from));
    return offers;
  } catch (error) {
    console.warn(
      "[console] could not list what a key entering a session may take over:",
      isAppError(error) ? error.message : error,
    );
    return [];
  }
}

/**
 * The applications (of `only`, when given) whose stored key no longer serves and whose every
 * watched webhook `apiKey` reads.
 */
async function takeable(apiKey: string, only?: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const own = applicationId(apiKey);
  for (const from of (await withStore(rejectedApplications)).slice(0, CARRY_OVER_MAX)) {
    if (from === own || (only && !only.includes(from))) continue;
    const watches = await withStore((ctx) => listWatches(ctx, [from]));
    // Another application's key fails on the first webhook: one hub call.
    if (watches.length > 0 && !(await firstUnread(apiKey, watches))) found.push(from);
  }
  return found;
}

/** The person's choice on an offer: hands `from` over to the session's key, if it may still take it over. */
export async function carryOver(
  from: string,
  apiKey: string,
  keepDestinations: readonly string[],
): Promise<HandOverPlan> {
  if ((await takeable(apiKey, [from])).length === 0) {
    throw new AppError(
      "not_found",
      "There is nothing this key can take over from that application: it was carried over already, its key serves again, " +
        "or this key does not read its watched webhooks. Reload the page.",
    );
  }
  const plan = await carry(await planOf(from), apiKey, keepDestinations);
  console.info(
    `[console] ${plan.watches.length} watches of application ${from}, whose stored key no longer served, ` +
      `now poll with a key that reads them (application ${applicationId(apiKey)})`,
  );
  return plan;
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
