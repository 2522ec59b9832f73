import { z } from "zod";
import { AppError } from "@/lib/server/app-error";
import { defineRoute } from "@/lib/server/http/route";
import { isCrossSiteFetch } from "@/lib/server/http/same-origin";
import { SIGN_IN_REASONS } from "@/lib/server/session/redirect";

const querySchema = z.object({
  // An unknown reason is dropped rather than refused: this is a browser navigation.
  reason: z.enum(SIGN_IN_REASONS).optional().catch(undefined),
});

/**
 * `GET /api/session/end?reason=key_rejected|expired`: where server components send the browser
 * when the session is over (`redirectToSignIn()`), since they cannot clear cookies themselves.
 * Revokes the session (a copied cookie stops working, as after Sign out), clears the cookie and
 * redirects (303) to `/login?reason=…`. The Sign out button falls back to it when its own call fails.
 *
 * Cross-site: a cross-site *navigation* is served (a person following a link from elsewhere to a
 * page whose session is over goes through here, and the whole redirect chain is then marked
 * cross-site; refusing would strand them, and ending a session is all an attacker could cause).
 * Cross-site subresource and script calls (img, iframe, fetch) are refused with 403.
 */
export const GET = defineRoute({
  query: querySchema,
  async handle({ request, query, session }) {
    const navigation =
      request.headers.get("sec-fetch-mode") === "navigate" &&
      request.headers.get("sec-fetch-dest") === "document";
    if (isCrossSiteFetch(request) && !navigation) {
      throw new AppError(
        "forbidden",
        "Refused a cross-site request to end the session. Use the console's own Sign out button.",
      );
    }
    await session.end();
    const location = query.reason ? `/login?reason=${query.reason}` : "/login";
    return new Response(null, { status: 303, headers: { Location: location } });
  },
});
