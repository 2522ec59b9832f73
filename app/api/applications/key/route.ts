import { defineRoute } from "@/lib/server/http/route";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { replaceKey } from "@/lib/server/session/applications";
import { summaryOf } from "@/lib/server/session/page-application";
import { sessionDataOf } from "@/lib/server/session/session";
import { replaceKeySchema } from "@/lib/domain/inputs/application";
import { checkNewKey } from "@/app/api/applications/check-key";

/**
 * Replaces an application's key `{ app, apiKey }` (after a rotation): checked with the hub first,
 * then kept, and the "key rejected" mark goes. Its id follows the new key.
 */
export const POST = defineRoute({
  body: replaceKeySchema,
  rateLimit: signInLimiter,
  async handle({ body, session, hub }) {
    const next = replaceKey(sessionDataOf(await session.state()), body.app, body.apiKey);
    await checkNewKey(hub(body.apiKey));
    await session.save(next);
    const replaced = next.applications.find((app) => app.apiKey === body.apiKey)!;
    return Response.json({ application: summaryOf(replaced) });
  },
});
