import { defineRoute } from "@/lib/server/http/route";
import { sessionDataOf } from "@/lib/server/session/session";
import { watchStore } from "@/lib/server/watch/store";
import { watchParamsSchema } from "@/app/api/watches/schema";
import { sessionAppIds } from "@/app/api/watches/overview-answer";

/** `{ watch }`: the watch of this webhook under one of the session's applications, or null. */
export const GET = defineRoute({
  params: watchParamsSchema,
  async handle({ params, session }) {
    const appIds = sessionAppIds(sessionDataOf(await session.state()));
    return Response.json({ watch: await (await watchStore()).getWatch(appIds, params.webhookId) });
  },
});

/** Stop watching: the watch, its stored history and (with the application's last watch) its sealed key go. */
export const DELETE = defineRoute({
  params: watchParamsSchema,
  async handle({ params, session }) {
    const appIds = sessionAppIds(sessionDataOf(await session.state()));
    await (await watchStore()).removeWatch(appIds, params.webhookId);
    return Response.json({ watch: null });
  },
});
