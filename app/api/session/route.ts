import { defineRoute } from "@/lib/server/http/route";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { currentApplication } from "@/lib/server/session/session";
import { signInSchema, signedInAnswer, type SessionAnswer } from "@/app/api/session/schema";
import { handOverOffers } from "@/lib/server/watch/hand-over";
import { checkNewKey } from "@/app/api/applications/check-key";

/**
 * Sign in: the hub is asked whether it accepts the key first (refused with its reason, and no
 * cookie set, when it does not), then the key is sealed in the session cookie. The answer lists,
 * as `handOver`, what the console keeps for applications whose stored key no longer serves and
 * whose watched webhooks this key reads (`handOverOffers`); nothing moves until the person chooses
 * (`POST /api/watches/hand-over`). The answer never contains the key.
 */
export const POST = defineRoute({
  body: signInSchema,
  rateLimit: signInLimiter,
  async handle({ body, session, hub }) {
    await checkNewKey(hub(body.apiKey));
    const data = await session.signIn(body.apiKey);
    const handOver = await handOverOffers(body.apiKey);
    return Response.json({ ...signedInAnswer(currentApplication(data)), handOver });
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
