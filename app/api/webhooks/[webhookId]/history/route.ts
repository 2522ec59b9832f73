import { defineRoute } from "@/lib/server/http/route";
import { beginAnswer, narrowToIssue } from "@/lib/server/history/answer";
import { ndjsonResponse } from "@/lib/server/history/ndjson";
import { webhookParamsSchema } from "@/app/api/webhooks/schemas";
import { scanQuerySchema } from "@/app/api/webhooks/[webhookId]/history/schemas";

/**
 * The logs of a webhook matching a question (one failure issue's, with `issue`), over its whole
 * history (up to `cap`), streamed as NDJSON: `progress` lines, then one `result` line (a page of
 * matched rows, their count, their health summary, partial/reason, arrivedMeanwhile, and
 * `source`: the watch's store or a scan), or an `error` line if the answer fails after it began.
 * Errors before that (bad input, key, webhook, issue) are ordinary JSON errors.
 */
export const GET = defineRoute({
  params: webhookParamsSchema,
  query: scanQuerySchema,
  async handle({ params, query, session, signal }) {
    const { id: appId, apiKey } = await session.storeApp();
    const { cap, offset, limit } = query;
    const question = await narrowToIssue(appId, params.webhookId, query.question, query.issue);
    const answer = await beginAnswer({ apiKey, appId, signal }, params.webhookId, question, {
      cap,
      offset,
      limit,
    });
    return ndjsonResponse((progress) => answer.run(progress), signal);
  },
});
