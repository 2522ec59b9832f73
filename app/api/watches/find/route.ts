import { findAcrossQuerySchema } from "@/lib/domain/inputs/find-across";
import { listWatches } from "@/lib/server/watch/watches";
import { findAcross } from "@/lib/server/watch/find-across";
import { withStore } from "@/lib/server/store/context";
import { webhookViewHref } from "@/lib/domain/log-view";
import { notFoundAcross, type FindAcrossAnswer } from "@/lib/domain/watch/find-across";
import { AppError } from "@/lib/server/app-error";
import { defineRoute } from "@/lib/server/http/route";

import { appIdsOf } from "@/app/api/watches/overview-answer";

/**
 * Find across everything: `q` (a message ID, a log ID or a console link to a delivery) looked up
 * in the stored logs of every watched webhook of every application in the session, with no hub
 * call. `{ log, watch, href }` (href opens the delivery under its own application), or 404 saying
 * where it looked.
 */
export const GET = defineRoute({
  query: findAcrossQuerySchema,
  async handle({ query, session }) {
    const appIds = appIdsOf(await session.storeApps());
    const target = query.q;
    const found = await withStore((ctx) => findAcross(ctx, appIds, target));
    if (!found) {
      const watches = await withStore((ctx) => listWatches(ctx, appIds));
      const message = notFoundAcross(target, {
        watches: watches.length,
        applications: new Set(watches.map((watch) => watch.appId)).size,
        linkedWatched: target.kind === "log" && watches.some((watch) => watch.webhookId === target.webhookId),
      });
      throw new AppError("not_found", message, { fields: { q: [message] } });
    }
    const href = webhookViewHref(found.watch.webhookId, { app: found.watch.appId, log: found.log.id });
    return Response.json({ ...found, href } satisfies FindAcrossAnswer);
  },
});
