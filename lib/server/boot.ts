import "server-only";
import { serverConfig, validateServerConfig } from "@/lib/server/config";
import { noteArrivals } from "@/lib/server/http/arrival";
import { markStopping } from "@/lib/server/stopping";
import { sharedStoreContext } from "@/lib/server/store/context";
import { startWatcher } from "@/lib/server/watch/watcher";

/**
 * A console server on Node.js, starting (from `register`, before it takes requests): checks the
 * configuration, opens (and migrates) the watch's database, and exits with a message naming the
 * variable when either fails; notes when each request arrives (arrival.ts); starts the watcher
 * unless WATCH_IN_CONSOLE=0; bounds how long a stop may take.
 */
export async function startNodeServer(): Promise<void> {
  try {
    const { warnings } = validateServerConfig();
    for (const warning of warnings) console.warn(`[console] ${warning}`);
    await sharedStoreContext();
  } catch (error) {
    console.error(`[console] Refusing to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  noteArrivals();
  if (serverConfig().watch.inConsole) {
    startWatcher().catch((error: unknown) =>
      console.error(
        `[console] The watcher did not start: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }
  boundTheStop();
}

/** Time to send the last answers after HUB_TIMEOUT_MS, when a request's hub call ran until its timeout. */
const STOP_MARGIN_MS = 1000;

/**
 * On SIGTERM (or SIGINT) `next start` closes its listening socket (no new connections), waits for
 * the requests in flight, then exits (143). Every hub call ends within HUB_TIMEOUT_MS; this
 * exits anyway once that (plus a second) has passed, whatever else still holds a connection
 * open (a client that never finishes sending its body). Meanwhile API answers carry
 * `Connection: close`, so idle keep-alive connections do not hold the exit back.
 */
function boundTheStop(): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      markStopping();
      const graceMs = serverConfig().hubTimeoutMs + STOP_MARGIN_MS;
      console.warn(
        `[console] ${signal}: no new connections; finishing the requests in flight (at most ${graceMs} ms).`,
      );
      setTimeout(() => {
        console.warn(`[console] Requests still open after ${graceMs} ms; exiting without them.`);
        process.exit(signal === "SIGTERM" ? 143 : 130);
      }, graceMs).unref();
    });
  }
}
