import { defineRoute } from "@/lib/server/http/route";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { currentApplication } from "@/lib/server/session/session";
import { signInSchema, signedInAnswer, type SessionAnswer } from "@/app/api/session/schema";
import { carryOverWatches } from "@/lib/server/watch/hand-over";
import { checkNewKey } from "@/app/api/applications/check-key";

/**
 * Sign in: the hub is asked whether it accepts the key first (refused with its reason, and no
 * cookie set, when it does not), then the key is sealed in the session cookie. Watches whose stored
 * key no longer serves come over to it when it reads their webhooks (`carryOverWatches`). The
 * answer never contains the key.
 */
export const POST = defineRoute({
  body: signInSchema,
  rateLimit: signInLimiter,
  async handle({ body, session, hub }) {
    await checkNewKey(hub(body.apiKey));
    const data = await session.signIn(body.apiKey);
    await carryOverWatches(body.apiKey);
    return Response.json(signedInAnswer(currentApplication(data)));
  },
});

/** Who is signed in. A cookie that no longer opens is cleared. */
export const GET = defineRoute({
  async handle({ session }) {
    const state = await session.state();
    if (state.status === "signed_in") return Response.json(signedInAnswer(currentApplication(state.data)));
    if (state.status === "ended") await session.end();
    return Response.json({ signedIn: false, keyHint: null } satisfies SessionAnswer);
  },
});

/**
 * Sign out: the session is revoked on every instance (its id is refused until it would have
 * expired) and the cookie is cleared (Max-Age=0, same name, path and flags).
 */
export const DELETE = defineRoute({
  async handle({ session }) {
    await session.end();
    return Response.json({ signedIn: false, keyHint: null } satisfies SessionAnswer);
  },
});
