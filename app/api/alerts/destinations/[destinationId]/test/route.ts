import { destinationParamsSchema } from "@/lib/domain/inputs/alert-destination";
import { defineRoute } from "@/lib/server/http/route";
import { consoleOrigin, sendTestAlert } from "@/lib/server/alerts/service";

/**
 * "Send test alert": records a test alert in the outbox, makes its first attempt and answers
 * `{ delivery }` as the log has it; a failed attempt is retried by the dispatcher.
 */
export const POST = defineRoute({
  params: destinationParamsSchema,
  async handle({ params, session, request }) {
    const app = await session.storeApp();
    const delivery = await sendTestAlert(app, params.destinationId, consoleOrigin(request));
    return Response.json({ delivery });
  },
});
