import { defineRoute } from "@/lib/server/http/route";
import { retryWebhookLog } from "@/lib/server/hub/client";
import { webhookLogParamsSchema } from "@/app/api/webhooks/schemas";

/** Retry one delivery: 501 `not_supported` until the API shows how (see `retryWebhookLog`). */
export const POST = defineRoute({
  params: webhookLogParamsSchema,
  async handle({ params, session, hub }) {
    const apiKey = await session.apiKey();
    return retryWebhookLog(hub(apiKey), params.webhookId, params.logId);
  },
});
