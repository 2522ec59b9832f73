import { defineRoute } from "@/lib/server/http/route";

import { renameWatch } from "@/lib/server/watch/watches";
import { withStore } from "@/lib/server/store/context";
import { renameWatchSchema, watchParamsSchema } from "@/app/api/watches/schema";
import { appIdsOf } from "@/app/api/watches/overview-answer";

/** Renames a watch `{ name }` of one of the session's applications. */
export const POST = defineRoute({
  params: watchParamsSchema,
  body: renameWatchSchema,
  async handle({ params, body, session }) {
    const appIds = appIdsOf(await session.storeApps());
    return Response.json({
      watch: await withStore((ctx) => renameWatch(ctx, appIds, params.webhookId, body.name)),
    });
  },
});
