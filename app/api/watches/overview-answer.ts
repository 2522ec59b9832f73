import "server-only";
import { overviewRows, watcherHealth } from "@/lib/server/watch/overview-rows";
import { withStore } from "@/lib/server/store/context";
import { overviewPage, type OverviewAnswer, type OverviewView } from "@/lib/domain/watch/overview-page";
import { summaryOf } from "@/lib/server/session/page-application";
import type { Application, SessionData } from "@/lib/server/session/session";

/** The ids of these applications: the only ones whose watches a session may see or change. */
export function appIdsOf(applications: readonly Pick<Application, "id">[]): string[] {
  return applications.map((app) => app.id);
}

/**
 * The overview of the session's applications whose stored data it may read (`allowed`, see
 * store-access.ts), as `view` filters and pages it: its rows worst first and the watcher's health,
 * read from the store alone (no hub call). The others are listed as keys rejected, with none of
 * their rows. An `app` the session may not read filters nothing. `store_unavailable` when the
 * database does not answer.
 */
export async function overviewAnswer(
  data: SessionData,
  allowed: readonly Application[],
  view: OverviewView,
  now = Date.now(),
): Promise<OverviewAnswer> {
  const appIds = appIdsOf(allowed);
  const [rows, health] = await withStore((ctx) =>
    Promise.all([overviewRows(ctx, appIds, now), watcherHealth(ctx, appIds, now)]),
  );
  const app = view.app && appIds.includes(view.app) ? view.app : null;
  const rejected = data.applications.filter((known) => !appIds.includes(known.id)).map((known) => known.id);
  return {
    applications: data.applications.map((known) =>
      summaryOf({ ...known, rejected: rejected.includes(known.id) }),
    ),
    ...overviewPage(rows, { ...view, app }),
    health: { ...health, keysRejected: [...new Set([...health.keysRejected, ...rejected])].sort() },
    at: new Date(now).toISOString(),
  };
}
