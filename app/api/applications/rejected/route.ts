import { AppError, isAppError } from "@/lib/server/app-error";
import { checkApiKey } from "@/lib/server/hub/client";
import { defineRoute } from "@/lib/server/http/route";
import { isCrossSiteFetch } from "@/lib/server/http/same-origin";
import { markRejected } from "@/lib/server/session/applications";
import { sessionDataOf } from "@/lib/server/session/session";
import { seeOther } from "@/app/api/applications/schema";

/**
 * `GET /api/applications/rejected?app=<id>`: where a page sends the browser when the hub answered
 * 401 to one of several applications' keys (pages cannot set cookies). The key is asked about
 * once more, so only a key the hub really rejects is marked; then the Applications page, which
 * shows the mark and Replace key (303). A key accepted after all leads back to its webhooks.
 * Like /api/session/end, a cross-site navigation is served (it can only mark a rejected key) and
 * other cross-site calls are refused.
 */
export const GET = defineRoute({
  async handle({ request, session, hub }) {
    const navigation =
      request.headers.get("sec-fetch-mode") === "navigate" &&
      request.headers.get("sec-fetch-dest") === "document";
    if (isCrossSiteFetch(request) && !navigation) {
      throw new AppError("forbidden", "Refused a cross-site request. Use the console's own pages.");
    }
    const app = await session.app();
    try {
      await checkApiKey(hub(app.apiKey));
      return seeOther(`/webhooks?app=${app.id}`);
    } catch (error) {
      if (!isAppError(error) || error.code !== "unauthorized") throw error;
    }
    await session.save(markRejected(sessionDataOf(await session.state()), app.id));
    return seeOther("/applications");
  },
});
