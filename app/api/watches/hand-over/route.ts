import { defineRoute } from "@/lib/server/http/route";
import { carryOverSchema } from "@/lib/domain/inputs/hand-over";
import { carryOver } from "@/lib/server/watch/hand-over";

/**
 * The person's choice on what sign-in or Add application offered `{ from, keepDestinations }`:
 * what the console keeps for application `from` (whose stored key no longer serves) moves to the
 * request's application (`?app=`, else the current one), once the hub shows its key reads every
 * webhook `from` watches: the watches, names and history, rules, snoozes and quiet hours, and the
 * destinations named in `keepDestinations` (the others are removed). Answers `{ carried }`, the
 * plan as carried. A session whose key is rejected is refused as the hub would.
 */
export const POST = defineRoute({
  body: carryOverSchema,
  async handle({ body, session }) {
    const app = await session.storeApp();
    return Response.json({ carried: await carryOver(body.from, app.apiKey, body.keepDestinations) });
  },
});
