import { defineRoute } from "@/lib/server/http/route";
import { serverConfig } from "@/lib/server/config";
import type { LastSuccessAnswer } from "@/lib/domain/bundle/last-success";
import { lastSuccessBefore, webhookChanges } from "@/lib/server/bundle/last-success";
import { webhookLogParamsSchema } from "@/app/api/webhooks/schemas";

/**
 * The last successful delivery of the webhook before this one, for "what changed since it last
 * worked" in the log dialog: from the watch's store when it holds them, else through the scan (up
 * to HISTORY_SCAN_CAP logs, stopping at it); with the webhook's own changes between the two when
 * the application watches it.
 */
export const GET = defineRoute({
  params: webhookLogParamsSchema,
  async handle({ params, session, signal }) {
    const { id: appId, apiKey } = await session.storeApp();
    const { cap } = serverConfig().history;
    const found = await lastSuccessBefore({ appId, apiKey, signal }, params.webhookId, params.logId, cap);
    const failed = found.failedAt;
    const changes =
      found.lastSuccess && failed
        ? await webhookChanges(appId, params.webhookId, { from: found.lastSuccess.sendAt, to: failed })
        : null;
    return Response.json({
      lastSuccess: found.lastSuccess,
      partial: found.partial,
      changes,
      source: found.source,
    } satisfies LastSuccessAnswer);
  },
});
