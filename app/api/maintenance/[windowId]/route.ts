import { maintenanceParamsSchema } from "@/lib/domain/inputs/maintenance";
import { defineRoute } from "@/lib/server/http/route";
import { removeMaintenance } from "@/lib/server/maintenance/service";

/** Removes a maintenance window of the page's application: its alerts are no longer held by it. */
export const DELETE = defineRoute({
  params: maintenanceParamsSchema,
  async handle({ params, session }) {
    const app = await session.storeApp();
    await removeMaintenance(app.id, params.windowId);
    return Response.json({ removed: params.windowId });
  },
});
