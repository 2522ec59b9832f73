import { defineRoute } from "@/lib/server/http/route";
import { sessionDataOf } from "@/lib/server/session/session";
import { watchStore } from "@/lib/server/watch/store";
import { renameWatchSchema, watchParamsSchema } from "@/app/api/watches/schema";
import { sessionAppIds } from "@/app/api/watches/overview-answer";

/** Renames a watch `{ name }` of one of the session's applications. */
export const POST = defineRoute({
  params: watchParamsSchema,
  body: renameWatchSchema,
  async handle({ params, body, session }) {
    const appIds = sessionAppIds(sessionDataOf(await session.state()));
    return Response.json({
      watch: await (await watchStore()).renameWatch(appIds, params.webhookId, body.name),
    });
  },
});
