import { defineRoute } from "@/lib/server/http/route";
import { renameApplication } from "@/lib/server/session/applications";
import { summaryOf } from "@/lib/server/session/page-application";
import { sessionDataOf } from "@/lib/server/session/session";
import { renameSchema } from "@/lib/domain/inputs/application";

/** Renames an application `{ app, name }`; a name that is empty, too long or another's is refused with the reason. */
export const POST = defineRoute({
  body: renameSchema,
  async handle({ body, session }) {
    const next = renameApplication(sessionDataOf(await session.state()), body.app, body.name);
    await session.save(next);
    return Response.json({ application: summaryOf(next.applications.find((app) => app.id === body.app)!) });
  },
});
