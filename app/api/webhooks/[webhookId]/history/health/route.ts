import { defineRoute } from "@/lib/server/http/route";
import { beginHealth } from "@/lib/server/history/answer";
import { ndjsonResponse } from "@/lib/server/history/ndjson";
import { webhookParamsSchema } from "@/app/api/webhooks/schemas";
import { healthQuerySchema } from "@/app/api/webhooks/[webhookId]/history/schemas";

/**
 * Delivery health of the most recent `window` (1h, 24h or 7d), read up to `cap` logs: the same
 * NDJSON as the scan route, whose result's `summary` is the health and `rows` the newest
 * attempts (at most 5); from the watch's store when it holds the window.
 */
export const GET = defineRoute({
  params: webhookParamsSchema,
  query: healthQuerySchema,
  async handle({ params, query, session, signal }) {
    const { id: appId, apiKey } = await session.storeApp();
    const answer = await beginHealth({ apiKey, appId, signal }, params.webhookId, query.window, query.cap);
    return ndjsonResponse(
      async (progress) => ({ ...(await answer.run(progress)), window: query.window }),
      signal,
    );
  },
});
