import { maintenanceQuerySchema, maintenanceWindowSchema } from "@/lib/domain/inputs/maintenance";
import { defineRoute } from "@/lib/server/http/route";
import { addMaintenance, listMaintenance } from "@/lib/server/maintenance/service";

/**
 * `{ windows }`: the maintenance windows of the page's application (`?app=`), each with its
 * current and next occurrence; with `?webhookId=`, that webhook's own and the whole application's.
 */
export const GET = defineRoute({
  query: maintenanceQuerySchema,
  async handle({ query, session }) {
    const app = await session.storeApp();
    return Response.json({ windows: await listMaintenance(app.id, query.webhookId ?? null) });
  },
});

/**
 * Adds a window `{ webhookId | null, repeats: "once", start, end, zone, note? }` or `{ webhookId |
 * null, repeats: "weekly", days, start, durationMinutes, zone, note? }` to the page's application:
 * 201 with the window.
 */
export const POST = defineRoute({
  body: maintenanceWindowSchema,
  async handle({ body, session }) {
    const app = await session.storeApp();
    return Response.json({ window: await addMaintenance(app.id, body) }, { status: 201 });
  },
});
