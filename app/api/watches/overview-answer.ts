import "server-only";
import type { OverviewAnswer } from "@/lib/domain/watching/overview";
import { summaryOf } from "@/lib/server/session/page-application";
import type { SessionData } from "@/lib/server/session/session";
import { watchStore } from "@/lib/server/watch/store";

/** The ids of the applications whose keys the session holds: the only watches it may see or change. */
export function sessionAppIds(data: SessionData): string[] {
  return data.applications.map((app) => app.id);
}

/**
 * The overview of every application in the session: its rows worst first and the watcher's
 * health, read from the store alone (no hub call). `store_unavailable` when the database does not answer.
 */
export async function overviewAnswer(data: SessionData, now = Date.now()): Promise<OverviewAnswer> {
  const store = await watchStore();
  const appIds = sessionAppIds(data);
  const [rows, health] = await Promise.all([store.overview(appIds, now), store.watcherHealth(appIds, now)]);
  return { applications: data.applications.map(summaryOf), rows, health, at: new Date(now).toISOString() };
}
