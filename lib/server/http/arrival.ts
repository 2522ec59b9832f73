import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import diagnostics from "node:diagnostics_channel";
import type { Socket } from "node:net";

const STORE = Symbol.for("hub-console.request-arrival");

/**
 * What Node's HTTP server saw of the request being handled, which route handlers do not see:
 * when it arrived (the moment Node parsed its headers, before the framework's own work and
 * before its handler got the event loop), and the address of the connection it came on. Ten
 * identical requests that arrive together may share one hub call started after all of them
 * arrived (shared-reads.ts), however late each handler runs; /metrics answers a caller on this
 * machine without a token (local-caller.ts).
 */
interface Arrival {
  at: number;
  /** The connection's remote address: the client's, or a proxy's in front. */
  peer: string | undefined;
}

/** One store per process: Next bundles this module into each route and into `register` separately. */
const arrival: AsyncLocalStorage<Arrival> = ((globalThis as { [STORE]?: AsyncLocalStorage<Arrival> })[
  STORE
] ??= new AsyncLocalStorage<Arrival>());

/**
 * Notes each request's arrival (performance.now() and the socket's remote address) from Node's
 * HTTP server channel; everything the request then runs, its handler included, reads it with
 * `arrivedAt()` and `peerAddress()`. Called once at boot.
 */
export function noteArrivals(): void {
  diagnostics.subscribe("http.server.request.start", (message) => {
    const { socket } = message as { socket?: Socket };
    arrival.enterWith({ at: performance.now(), peer: socket?.remoteAddress });
  });
}

/** When the current request arrived; now, outside a request (or before `noteArrivals`). */
export function arrivedAt(): number {
  return arrival.getStore()?.at ?? performance.now();
}

/** The remote address of the current request's connection; undefined outside a request (or before `noteArrivals`). */
export function peerAddress(): string | undefined {
  return arrival.getStore()?.peer;
}
