import "server-only";
import { keyStates } from "@/lib/server/watch/watches";
import { withStore } from "@/lib/server/store/context";
import { AppError } from "@/lib/server/app-error";
import type { Application } from "@/lib/server/session/session";

/**
 * What a session may read and change of what the console stores (watches, their logs, issues and
 * timeline, alert rules, snoozes, quiet hours, destinations, deliveries, incidents): only what
 * belongs to its applications whose key is not known to be rejected. A key is known rejected when
 * the hub answered 401 to it in this session (the cookie's mark) or to the watcher (the store's
 * `watch_keys.rejected_at`). A rotated key thereby loses its power over the stored data when the
 * hub stops accepting it, as it loses its power over the hub's.
 *
 * Every route reaches the store through RouteSession.storeApp()/storeApps() (route.ts), and the
 * pages through this module, so the rule is kept in one place.
 */

export interface StoreAccess {
  /** The session's applications whose stored data it may read and change. */
  allowed: Application[];
  /** Ids of the session's applications whose key is known rejected. */
  rejected: string[];
}

/**
 * The split of these applications by their keys. When the store does not answer, only the
 * session's own marks count: nothing stored can be read then anyway.
 */
export async function storeAccess(applications: readonly Application[]): Promise<StoreAccess> {
  const rejected = new Set(applications.filter((app) => app.rejected).map((app) => app.id));
  try {
    const states = await withStore((ctx) =>
      keyStates(
        ctx,
        applications.map((app) => app.id),
      ),
    );
    for (const state of states) if (state.rejected) rejected.add(state.appId);
  } catch {
    // store_unavailable: the read that follows fails the same way, or answers from the hub.
  }
  return {
    allowed: applications.filter((app) => !rejected.has(app.id)),
    rejected: applications.filter((app) => rejected.has(app.id)).map((app) => app.id),
  };
}

/**
 * The 401 a route answers for an application whose key is rejected, as for the hub's own 401
 * (defineRoute ends a one-application session, or marks that application in a session of several).
 */
export function keyRejected(app: Application): AppError {
  return new AppError(
    "unauthorized",
    `The Messaging Hub rejects the key of "${app.name}" (…${app.keyHint || "short key"}): it was rotated or revoked, ` +
      "so the console no longer shows or changes what it keeps for it. Sign in with the application's current key: " +
      "the console then lists what it keeps for the old key and lets you carry it over.",
  );
}
