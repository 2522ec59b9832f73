import pLimit from "p-limit";
import { addWatches, listWatches } from "@/lib/server/watch/watches";
import { withStore } from "@/lib/server/store/context";
import { isAppError } from "@/lib/server/app-error";
import { defineRoute } from "@/lib/server/http/route";
import { webhookIdSchema } from "@/lib/server/hub/path-params";
import type { Webhook } from "@/lib/domain/hub-schemas";
import { parseBulkInput, type BulkOutcome } from "@/lib/domain/watch/bulk-input";

import { watchManySchema } from "@/app/api/watches/schema";
import { checkWebhook } from "@/app/api/watches/check-webhook";

/** Webhooks read from the hub at once for one paste: the hub's rate limit is per key. */
const CHECKS_IN_FLIGHT = 4;

/**
 * Watches many webhooks of the page's application at once `{ text }`: IDs one per line, or a CSV
 * of id,name. Each line is checked on its own (its shape, then the hub reads it with the
 * application's key); the ones the hub reads are kept together, the others are refused with why,
 * and the answer says so per line: watched now, already watched (renamed when the line gives another
 * name), or refused. A key the hub rejects stops the whole paste (nothing is kept).
 */
export const POST = defineRoute({
  body: watchManySchema,
  bodyLimitBytes: 64 * 1024,
  async handle({ body, session, hub }) {
    const app = await session.storeApp();
    const lines = parseBulkInput(body.text);
    const limit = pLimit(CHECKS_IN_FLIGHT);
    const checked = await Promise.all(
      lines.map((line) =>
        limit(async (): Promise<{ line: typeof line; webhook?: Webhook; problem?: string }> => {
          if (!line.ok) return { line, problem: `Line ${line.line} ${line.problem}.` };
          try {
            return {
              line,
              webhook: await checkWebhook(hub(app.apiKey), webhookIdSchema.parse(line.webhookId)),
            };
          } catch (error) {
            if (!isAppError(error) || error.code === "unauthorized") throw error;
            return { line, problem: error.message };
          }
        }),
      ),
    );
    const kept = checked.filter((entry) => entry.webhook);
    const [before, watches] = await withStore(async (ctx) => {
      const had = new Map((await listWatches(ctx, [app.id])).map((watch) => [watch.webhookId, watch.name]));
      const added = kept.length
        ? await addWatches(
            ctx,
            app.id,
            app.apiKey,
            kept.map(({ line, webhook }) => ({ webhook: webhook!, name: line.ok ? line.name : "" })),
          )
        : [];
      return [had, added] as const;
    });
    const byId = new Map(watches.map((watch) => [watch.webhookId, watch]));
    const outcomes: BulkOutcome[] = checked.map(({ line, webhook, problem }) => {
      const watch = webhook ? byId.get(webhook.id) : undefined;
      if (!watch)
        return {
          line: line.line,
          text: line.ok ? line.webhookId : line.text,
          status: "refused",
          message: problem ?? "",
        };
      const common = {
        line: line.line,
        text: watch.webhookId,
        webhookId: watch.webhookId,
        appId: watch.appId,
      };
      const had = before.get(watch.webhookId);
      if (had === undefined) return { ...common, status: "watched", message: `Watched as "${watch.name}".` };
      if (had === watch.name)
        return { ...common, status: "already", message: `Its name stays "${watch.name}".` };
      return {
        ...common,
        status: "already",
        message: `Renamed from "${had}" to "${watch.name}".`,
        renamedFrom: had,
      };
    });
    return Response.json({ outcomes });
  },
});
