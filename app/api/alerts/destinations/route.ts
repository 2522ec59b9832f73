import { addDestinationSchema } from "@/lib/domain/inputs/alert-destination";
import { defineRoute } from "@/lib/server/http/route";
import { addDestination, listDestinations } from "@/lib/server/alerts/service";

/** `{ destinations }`: where the page's application (`?app=`, else the current one) sends its alerts, masked. */
export const GET = defineRoute({
  async handle({ session }) {
    const app = await session.storeApp();
    return Response.json({ destinations: await listDestinations(app) });
  },
});

/**
 * Adds a destination `{ kind, label, url | to, secret? }` to the page's application. 201 with the
 * destination (masked) and, for a signed webhook given no secret, the generated `signingSecret`,
 * shown this once.
 */
export const POST = defineRoute({
  body: addDestinationSchema,
  async handle({ body, session }) {
    const app = await session.storeApp();
    return Response.json(await addDestination(app, body), { status: 201 });
  },
});
