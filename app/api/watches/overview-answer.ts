import "server-only";
import { overviewPage, type OverviewAnswer, type OverviewView } from "@/lib/domain/watching/overview";
import { summaryOf } from "@/lib/server/session/page-application";
import type { SessionData } from "@/lib/server/session/session";
import { watchStore } from "@/lib/server/watch/store";

/** The ids of the applications whose keys the session holds: the only watches it may see or change. */
export function sessionAppIds(data: SessionData): string[] {
  return data.applications.map((app) => app.id);
}

/**
 * The overview of every application in the session, as `view` filters and pages it: its rows worst
 * first and the watcher's health, read from the store alone (no hub call). An `app` the session
 * does not hold filters nothing. `store_unavailable` when the database does not answer.
 */
export async function overviewAnswer(
  data: SessionData,
  view: OverviewView,
  now = Date.now(),
): Promise<OverviewAnswer> {
  const store = await watchStore();
  const appIds = sessionAppIds(data);
  const [rows, health] = await Promise.all([store.overview(appIds, now), store.watcherHealth(appIds, now)]);
  const app = view.app && appIds.includes(view.app) ? view.app : null;
  return {
    applications: data.applications.map(summaryOf),
    ...overviewPage(rows, { ...view, app }),
    health,
    at: new Date(now).toISOString(),
  };
}
