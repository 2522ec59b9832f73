import "server-only";

/**
 * The watcher: polls every watched webhook under a lease, writes new logs and the cursor in one
 * transaction, and keeps going when one webhook, one key or the database fails.
 */
export interface Watcher {
  /** Stops claiming work, lets polls in flight finish, releases its leases. */
  stop(): Promise<void>;
}

/** Starts the watcher of this process (in the console by default, or alone with `tsx lib/server/watch/main.ts`). */
export async function startWatcher(): Promise<Watcher> {
  throw new Error("not yet");
}
