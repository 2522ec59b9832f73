import { defineRoute } from "@/lib/server/http/route";
import { addWatches } from "@/lib/server/watch/watches";
import { withStore } from "@/lib/server/store/context";
import { sessionDataOf } from "@/lib/server/session/session";

import { watchOneSchema } from "@/app/api/watches/schema";
import { checkWebhook } from "@/app/api/watches/check-webhook";
import { overviewAnswer } from "@/app/api/watches/overview-answer";
import { loadOverviewSearchParams } from "@/components/overview/search-params";

/**
 * The overview: the watched webhooks of every application in the session, worst first, filtered
 * and paged as the overview's URL says (`?failing=&app=&q=&page=`), and the watcher's health.
 */
export const GET = defineRoute({
  async handle({ request, session }) {
    const view = loadOverviewSearchParams(new URL(request.url).searchParams);
    const allowed = await session.storeApps();
    return Response.json(await overviewAnswer(sessionDataOf(await session.state()), allowed, view));
  },
});

/**
 * Watches one webhook `{ webhookId, name }` of the page's application (`?app=`, else the current
 * one): read with its key first, so an ID that is not a webhook of that application is refused
 * with the hub's reason and nothing is stored.
 */
export const POST = defineRoute({
  body: watchOneSchema,
  async handle({ body, session, hub }) {
    const app = await session.storeApp();
    const webhook = await checkWebhook(hub(app.apiKey), body.webhookId);
    const [watch] = await withStore((ctx) =>
      addWatches(ctx, app.id, app.apiKey, [{ webhook, name: body.name }]),
    );
    return Response.json({ watch }, { status: 201 });
  },
});
