import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import diagnostics from "node:diagnostics_channel";

const STORE = Symbol.for("hub-console.request-arrival");

/**
 * When the request being handled reached the server: the moment Node parsed its headers, before
 * the framework's own work and before its handler got the event loop. Ten identical requests
 * that arrive together may share one hub call started after all of them arrived
 * (shared-reads.ts), however late each handler runs.
 */

/** One store per process: Next bundles this module into each route and into `register` separately. */
const arrival: AsyncLocalStorage<number> = ((globalThis as { [STORE]?: AsyncLocalStorage<number> })[STORE] ??=
  new AsyncLocalStorage<number>());

/**
 * Notes each request's arrival (performance.now()) from Node's HTTP server channel; everything
 * the request then runs, its handler included, reads it with `arrivedAt()`. Called once at boot.
 */
export function noteArrivals(): void {
  diagnostics.subscribe("http.server.request.start", () => arrival.enterWith(performance.now()));
}

/** When the current request arrived; now, outside a request (or before `noteArrivals`). */
export function arrivedAt(): number {
  return arrival.getStore() ?? performance.now();
}
