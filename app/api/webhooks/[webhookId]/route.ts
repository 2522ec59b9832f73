import { defineRoute } from "@/lib/server/http/route";
import { getWebhook } from "@/lib/server/hub/client";
import { webhookParamsSchema } from "@/app/api/webhooks/schemas";

/** The webhook object, as the hub has it (unknown fields kept). */
export const GET = defineRoute({
  params: webhookParamsSchema,
  async handle({ params, session, poll, hub }) {
    const apiKey = await session.apiKey();
    return Response.json(await getWebhook({ ...hub(apiKey), poll }, params.webhookId));
  },
});
