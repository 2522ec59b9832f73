import { metricsRoute } from "@/lib/server/metrics/route";
import { runningWatcher } from "@/lib/server/watch/watcher";
import { sharedStoreContext } from "@/lib/server/store/context";

/**
 * GET /metrics: the console's metrics for Prometheus (docs/metrics.md), at the path Prometheus
 * scrapes by default. Bearer METRICS_TOKEN, or callers on this machine only when it is unset.
 */
export const GET = metricsRoute({
  store: sharedStoreContext,
  budgets: async () => (await runningWatcher())?.budgetsLeft() ?? [],
});
