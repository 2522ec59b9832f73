import { defineRoute } from "@/lib/server/http/route";
import { beginScan } from "@/lib/server/history/scan";
import { ndjsonResponse } from "@/lib/server/history/ndjson";
import { webhookParamsSchema } from "@/app/api/webhooks/schemas";
import { scanQuerySchema } from "@/app/api/webhooks/[webhookId]/history/schemas";

/**
 * The logs of a webhook matching a question, over its whole history (up to `cap`), streamed as
 * NDJSON: `progress` lines, then one `result` line (a page of matched rows, their count, their
 * health summary, partial/reason, arrivedMeanwhile), or an `error` line if the scan fails after
 * the answer began. Errors before that (bad input, key, webhook) are ordinary JSON errors.
 */
export const GET = defineRoute({
  params: webhookParamsSchema,
  query: scanQuerySchema,
  async handle({ params, query, session, signal }) {
    const apiKey = await session.apiKey();
    const { question, cap, offset, limit } = query;
    const scan = await beginScan({ apiKey, signal }, params.webhookId, question, { cap, offset, limit });
    return ndjsonResponse((progress) => scan.run(progress), signal);
  },
});
