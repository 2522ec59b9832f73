/**
 * `startSandbox()`: the sandbox hub as one object — database, routes, delivery worker, HTTP
 * server. Used by main.ts (the CLI), the launcher's child process and the tests.
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resolveOptions, type SandboxOptions } from "./config";
import { openDatabase, type Db } from "./db";
import { DeliveryWorker } from "./delivery-worker";
import { FaultInjector } from "./faults";
import { HttpError, Router, sendError } from "./http";
import { addInboxRoutes, AlertInbox } from "./inbox";
import { startInboxSmtp, type InboxSmtp } from "./inbox-smtp";
import { addReceiverRoutes, RECEIVERS_PATH } from "./receivers";
import { addAdminRoutes } from "./routes-admin";
import { addApiRoutes } from "./routes-api";
import { demoInfo, pointDemoAtReceivers, seedDemo, type DemoInfo } from "./seed";
import { createStore, type Store } from "./store";

export type { SandboxOptions } from "./config";

export interface Sandbox {
  /** Base URL, e.g. `http://127.0.0.1:4010` (no trailing slash). */
  url: string;
  port: number;
  host: string;
  db: Db;
  store: Store;
  /** Fault injection on the spec routes: its `settings`, `set()`, `state()` (faults.ts). */
  faults: FaultInjector;
  /** The alert inbox (inbox.ts): what arrived at its Slack, webhook and SMTP stand-ins. */
  inbox: AlertInbox;
  /** Port of the inbox's SMTP listener, on the sandbox's host. */
  smtpPort: number;
  /** The demo application, or undefined when the database has no demo data. */
  demo(): DemoInfo | undefined;
  /** Resolves when no delivery is queued or in flight. */
  whenIdle(): Promise<void>;
  /**
   * Graceful stop: refuse new requests (503), let deliveries in flight finish for up to
   * `graceMs` (default 2000; the rest stay queued for the next start), close the server and the DB.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** The host to put in URLs: a wildcard address is reached through loopback; IPv6 gets brackets. */
function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const config = resolveOptions(options);
  const db = openDatabase(config.dbPath);
  const store = createStore(db);
  const worker = new DeliveryWorker({
    store,
    timeoutMs: config.deliveryTimeoutMs,
    concurrency: config.deliveryConcurrency,
    perWebhookConcurrency: config.perWebhookConcurrency,
    log: config.log,
  });

  const faults = new FaultInjector(config.faults, config.log);
  const router = new Router();
  addApiRoutes(router, { store, onQueued: (webhookIds) => worker.notify(webhookIds) });
  addAdminRoutes(router, {
    store,
    adminToken: config.adminToken,
    inFlightDeliveries: () => worker.inFlightCount,
    faults,
  });
  addReceiverRoutes(router);
  const inbox = new AlertInbox();
  let smtp: InboxSmtp | undefined;
  let baseUrl = "";
  addInboxRoutes(router, {
    inbox,
    adminToken: config.adminToken,
    smtp: () => (smtp ? { host: urlHost(config.host).replace(/^\[|\]$/g, ""), port: smtp.port } : null),
    baseUrl: () => baseUrl,
  });

  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let closing = false;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await ready;
      const url = new URL(req.url ?? "/", "http://sandbox.invalid");
      if (closing && !url.pathname.startsWith(`${RECEIVERS_PATH}/`)) {
        throw new HttpError(
          503,
          "shutting_down",
          "The sandbox is shutting down; try again once it is restarted.",
          undefined,
          {
            connection: "close",
          },
        );
      }
      const match = router.match(req.method ?? "GET", url.pathname);
      if (match instanceof HttpError) throw match;
      // The one place faults are injected: before the handler, so a faulted request changes nothing.
      if (await faults.intercept(req, res, url.pathname)) return;
      await match.handler({ req, res, url, params: match.params });
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof HttpError) {
        sendError(res, error);
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      config.log(
        `sandbox: ${req.method} ${req.url} failed: ${error instanceof Error ? (error.stack ?? reason) : reason}`,
      );
      sendError(res, new HttpError(500, "internal_error", `The sandbox failed to answer: ${reason}`));
    }
  }

  const server = http.createServer((req, res) => void handle(req, res));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.port, config.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    db.close();
    const code = error instanceof Error && "code" in error ? error.code : undefined;
    if (code === "EADDRINUSE") {
      throw new Error(
        `Port ${config.port} on ${config.host} is already in use (another sandbox?). ` +
          `Stop that process, or set SANDBOX_PORT to another port (0 picks a free one).`,
      );
    }
    throw error;
  }

  const address = server.address() as AddressInfo;
  const url = `http://${urlHost(config.host)}:${address.port}`;
  baseUrl = url;
  try {
    smtp = await startInboxSmtp(inbox, config.host, config.smtpPort).catch((error: unknown) => {
      const code = error instanceof Error && "code" in error ? error.code : undefined;
      throw code === "EADDRINUSE"
        ? new Error(
            `SANDBOX_SMTP_PORT ${config.smtpPort} on ${config.host} is already in use. ` +
              "Stop that process, or set SANDBOX_SMTP_PORT to another port (0 picks a free one).",
          )
        : error;
    });
    // A fresh demo already points at this server's receivers; an existing one is pointed at them.
    if (config.seed === "demo" && store.isEmpty()) seedDemo(store, url);
    else pointDemoAtReceivers(store, url);
    worker.start();
  } catch (error) {
    server.close();
    await smtp?.close();
    db.close();
    throw error;
  }
  markReady();

  let closed: Promise<void> | undefined;
  async function close({ graceMs = 2000 }: { graceMs?: number } = {}): Promise<void> {
    closing = true;
    await worker.stop(graceMs);
    const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await Promise.all([serverClosed, smtp?.close()]);
    db.close();
  }

  return {
    url,
    port: address.port,
    host: config.host,
    db,
    store,
    faults,
    inbox,
    smtpPort: smtp!.port,
    demo: () => demoInfo(store),
    whenIdle: () => worker.whenIdle(),
    close: (opts) => (closed ??= close(opts)),
  };
}
