import { defineRoute } from "@/lib/server/http/route";
import { listWebhookLogs } from "@/lib/server/hub/client";
import { webhookLogQuerySchema } from "@/lib/domain/hub-schemas";
import { webhookParamsSchema } from "@/app/api/webhooks/schemas";

/** One page of a webhook's delivery logs: `{ data, pagination }`; `offset`, `limit` (1..50), `status`. */
export const GET = defineRoute({
  params: webhookParamsSchema,
  query: webhookLogQuerySchema,
  async handle({ params, query, session, poll, hub }) {
    const apiKey = await session.apiKey();
    return Response.json(await listWebhookLogs({ ...hub(apiKey), poll }, params.webhookId, query));
  },
});
