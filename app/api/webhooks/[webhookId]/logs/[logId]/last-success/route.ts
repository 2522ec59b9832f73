import { defineRoute } from "@/lib/server/http/route";
import { serverConfig } from "@/lib/server/config";
import { lastSuccessBefore } from "@/lib/server/handover/last-success";
import { webhookLogParamsSchema } from "@/app/api/webhooks/schemas";

/**
 * The last successful delivery of the webhook before this one, for "what changed since it last
 * worked" in the log dialog: read through the scan, up to HISTORY_SCAN_CAP logs, stopping at it.
 */
export const GET = defineRoute({
  params: webhookLogParamsSchema,
  async handle({ params, session, signal }) {
    const apiKey = await session.apiKey();
    const { cap } = serverConfig().history;
    return Response.json(await lastSuccessBefore({ apiKey, signal }, params.webhookId, params.logId, cap));
  },
});
