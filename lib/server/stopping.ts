import "server-only";

/**
 * Whether this server got SIGTERM/SIGINT and is finishing its requests in flight. Kept on
 * globalThis, not in a module variable: Next loads `register` and the route handlers in
 * separate bundles, each with its own copy of this module.
 */
const STOPPING = Symbol.for("hub-console.stopping");

export function markStopping(): void {
  (globalThis as Record<symbol, unknown>)[STOPPING] = true;
}

export function isStopping(): boolean {
  return (globalThis as Record<symbol, unknown>)[STOPPING] === true;
}
