import "server-only";
import { keyStates } from "@/lib/server/watch/watches";
import { withStore } from "@/lib/server/store/context";
import { AppError } from "@/lib/server/app-error";
import type { Application } from "@/lib/server/session/session";

/**
 * A session reads and changes what the console stores only for its applications whose key is not
 * known rejected (by the hub, to this session or to the watcher): a rotated key loses its power
 * over stored data as over the hub's. Routes and pages reach the store through this module.
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
    const ids = applications.map((app) => app.id);
    const states = await withStore((ctx) => keyStates(ctx, ids));
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
