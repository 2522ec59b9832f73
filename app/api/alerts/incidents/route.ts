import { defineRoute } from "@/lib/server/http/route";
import { incidents } from "@/lib/server/alerts/service";

/**
 * `{ firing, resolved }`: the alert incidents of every application in the session, firing ones
 * application-wide first then oldest first, and the newest resolved ones, from the store alone.
 * Another application's are never listed.
 */
export const GET = defineRoute({
  async handle({ session }) {
    const applications = await session.storeApps();
    return Response.json(await incidents(new Map(applications.map((app) => [app.id, app.name]))));
  },
});
