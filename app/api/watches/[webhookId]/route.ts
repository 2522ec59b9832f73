import { defineRoute } from "@/lib/server/http/route";

import { getWatch, removeWatch } from "@/lib/server/watch/watches";
import { withStore } from "@/lib/server/store/context";
import { watchParamsSchema } from "@/app/api/watches/schema";
import { appIdsOf } from "@/app/api/watches/overview-answer";

/** `{ watch }`: the watch of this webhook under one of the session's applications, or null. */
export const GET = defineRoute({
  params: watchParamsSchema,
  async handle({ params, session }) {
    const appIds = appIdsOf(await session.storeApps());
    return Response.json({ watch: await withStore((ctx) => getWatch(ctx, appIds, params.webhookId)) });
  },
});

/** Stop watching: the watch, its stored history and (with the application's last watch) its sealed key go. */
export const DELETE = defineRoute({
  params: watchParamsSchema,
  async handle({ params, session }) {
    const appIds = appIdsOf(await session.storeApps());
    await withStore((ctx) => removeWatch(ctx, appIds, params.webhookId));
    return Response.json({ watch: null });
  },
});
