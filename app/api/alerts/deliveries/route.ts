import { defineRoute } from "@/lib/server/http/route";
import { recentDeliveries } from "@/lib/server/alerts/service";

/** `{ deliveries }`: the newest alert deliveries of the page's application, each with its attempts and last answer. */
export const GET = defineRoute({
  async handle({ session }) {
    const app = await session.storeApp();
    return Response.json({ deliveries: await recentDeliveries(app.id) });
  },
});
