import { defineRoute } from "@/lib/server/http/route";
import { EMPTY_QUESTION } from "@/lib/domain/history/question";
import { HEALTH_WINDOWS } from "@/lib/domain/history/health";
import { beginScan } from "@/lib/server/history/scan";
import { ndjsonResponse } from "@/lib/server/history/ndjson";
import { webhookParamsSchema } from "@/app/api/webhooks/schemas";
import { healthQuerySchema } from "@/app/api/webhooks/[webhookId]/history/schemas";

/**
 * Delivery health of the most recent `window` (1h, 24h or 7d), read up to `cap` logs: the same
 * NDJSON as the scan route, whose result's `summary` is the health and `rows` the newest
 * attempts (at most 5).
 */
export const GET = defineRoute({
  params: webhookParamsSchema,
  query: healthQuerySchema,
  async handle({ params, query, session, signal }) {
    const apiKey = await session.apiKey();
    const now = Date.now();
    const question = { ...EMPTY_QUESTION, since: now - HEALTH_WINDOWS[query.window] };
    const scan = await beginScan(
      { apiKey, signal },
      params.webhookId,
      question,
      { cap: query.cap, offset: 0, limit: 5, followStreak: true },
      now,
    );
    return ndjsonResponse(
      async (progress) => ({ ...(await scan.run(progress)), window: query.window }),
      signal,
    );
  },
});
