import { defineRoute } from "@/lib/server/http/route";
import { EMPTY_QUESTION } from "@/lib/domain/history/question";
import { HEALTH_WINDOWS } from "@/lib/domain/history/health";
import { beginAnswer } from "@/lib/server/history/answer";
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
    const now = Date.now();
    const question = { ...EMPTY_QUESTION, since: now - HEALTH_WINDOWS[query.window] };
    const answer = await beginAnswer(
      { apiKey, appId, signal },
      params.webhookId,
      question,
      { cap: query.cap, offset: 0, limit: 5, followStreak: true },
      now,
    );
    return ndjsonResponse(
      async (progress) => ({ ...(await answer.run(progress)), window: query.window }),
      signal,
    );
  },
});
