import { defineRoute } from "@/lib/server/http/route";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { addApplication } from "@/lib/server/session/applications";
import { summaryOf } from "@/lib/server/session/page-application";
import { sessionDataOf } from "@/lib/server/session/session";
import { addApplicationSchema } from "@/lib/domain/inputs/application";
import { handOverOffers } from "@/lib/server/watch/hand-over";
import { checkNewKey } from "@/app/api/applications/check-key";

/** The session's applications: names, ids and key hints, never a key. */
export const GET = defineRoute({
  async handle({ session }) {
    const data = sessionDataOf(await session.state());
    return Response.json({ current: data.current, applications: data.applications.map(summaryOf) });
  },
});

/**
 * Adds an application `{ name, apiKey }`. Refused with the reason, and nothing stored, when the
 * name is empty, too long or taken, the key is already added (the answer names it), the session
 * holds APPLICATIONS_MAX already, the cookie would outgrow 4 KB, or the hub rejects the key.
 * Counted by the sign-in limiter (it is a way to try keys). The current application stays.
 * The answer lists, as `handOver`, what the console keeps for applications whose stored key no
 * longer serves and whose watched webhooks the new key reads; nothing moves until the person
 * chooses (`POST /api/watches/hand-over?app=<the new application>`).
 */
export const POST = defineRoute({
  body: addApplicationSchema,
  rateLimit: signInLimiter,
  async handle({ body, session, hub }) {
    const next = addApplication(sessionDataOf(await session.state()), body);
    await checkNewKey(hub(body.apiKey));
    await session.save(next);
    const handOver = await handOverOffers(body.apiKey);
    return Response.json({ application: summaryOf(next.applications.at(-1)!), handOver }, { status: 201 });
  },
});
