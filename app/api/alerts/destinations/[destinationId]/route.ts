import { destinationParamsSchema } from "@/lib/domain/inputs/alert-destination";
import { defineRoute } from "@/lib/server/http/route";
import { removeDestination } from "@/lib/server/alerts/service";

/** Removes a destination of the page's application; its past deliveries stay in the log. */
export const DELETE = defineRoute({
  params: destinationParamsSchema,
  async handle({ params, session }) {
    const app = await session.storeApp();
    await removeDestination(app.id, params.destinationId);
    return Response.json({ removed: params.destinationId });
  },
});
