import { defineRoute } from "@/lib/server/http/route";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { replaceKey } from "@/lib/server/session/applications";
import { summaryOf } from "@/lib/server/session/page-application";
import { sessionDataOf } from "@/lib/server/session/session";
import { handOverKey } from "@/lib/server/watch/hand-over";
import { checkNewKey } from "@/app/api/applications/check-key";
import { NEW_API_KEY_LABEL } from "@/lib/domain/inputs/api-key";
import { handOverSchema } from "@/app/api/watches/schema";

/**
 * Hands a new key over to a watched application whose key the hub rejects `{ app, apiKey }`: the
 * session must hold that application (its old key; else not found). The new key is checked with the hub, then
 * must read every webhook the application watches; only then are the sealed key (keeping the
 * watches, names and history) and the session's key replaced. Counted by the sign-in limiter
 * (it is a way to try keys).
 */
export const POST = defineRoute({
  body: handOverSchema,
  rateLimit: signInLimiter,
  async handle({ body, session, hub }) {
    const data = sessionDataOf(await session.state());
    const next = replaceKey(data, body.app, body.apiKey);
    await checkNewKey(hub(body.apiKey), NEW_API_KEY_LABEL);
    await handOverKey(body.app, body.apiKey);
    await session.save(next);
    const replaced = next.applications.find((app) => app.apiKey === body.apiKey)!;
    return Response.json({ application: summaryOf(replaced) });
  },
});
