import "server-only";
import { defineRoute, type RouteHandler } from "@/lib/server/http/route";
import { assertMetricsAccess } from "@/lib/server/metrics/access";
import { METRICS_CONTENT_TYPE, metricsText, type KeyBudget } from "@/lib/server/metrics/exposition";
import type { StoreContext } from "@/lib/server/store/context";
import { unavailable } from "@/lib/server/store/context";

/**
 * GET /metrics (app/metrics/route.ts): the access check, then the metrics read from the store
 * (503 `store_unavailable` when it does not answer). The store and the watcher's budgets are
 * given, so tests scrape the same handler over a store of their own.
 */
export function metricsRoute(sources: {
  store: () => Promise<StoreContext>;
  budgets: () => Promise<readonly KeyBudget[]>;
}): RouteHandler {
  return defineRoute({
    async handle({ request }) {
      assertMetricsAccess(request);
      let text: string;
      try {
        text = await metricsText(await sources.store(), await sources.budgets());
      } catch (error) {
        throw unavailable(error);
      }
      return new Response(text, { headers: { "Content-Type": METRICS_CONTENT_TYPE } });
    },
  });
}
