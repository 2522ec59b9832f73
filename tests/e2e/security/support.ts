/**
 * Security specs start their own servers, so they can read every log line and choose every
 * setting: the built console (`next start` from NEXT_DIST_DIR, default .next) and the sandbox,
 * each a child process on 127.0.0.1 whose stdout/stderr is kept. Each takes a port the OS says is
 * free, so specs and runs side by side never meet on one.
 */
import type { Server } from "node:http";
import path from "node:path";
import { READY_LINE_PREFIX } from "../../../lib/sandbox/config";
import {
  NEXT_BIN,
  ROOT,
  SANDBOX_ARGS,
  answers,
  freePort,
  spawnServer,
  waitUntilReady,
  type ServerProcess as Process,
} from "../../support/server-process";

export const DIST_DIR = path.resolve(ROOT, process.env.NEXT_DIST_DIR || ".next");
export const SESSION_SECRET = "security-e2e-session-secret-0123456789abcdef";

export type ServerProcess = Process & { url: string };

function withUrl(server: Process, port: number): ServerProcess {
  return Object.assign(server, { url: `http://127.0.0.1:${port}` });
}

/** Starts `server` on a port of 127.0.0.1 the OS picks, and answers that port. */
export async function listenOnFreePort(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || !address) throw new Error("the server has no port");
  return address.port;
}

/** The built console on a free port. `env` may point it at any hub. */
export async function startConsole(env: Record<string, string>): Promise<ServerProcess> {
  const server = spawnConsole(await freePort(), env);
  await waitUntilReady(server, answers(`${server.url}/api/session`));
  return server;
}

/** Starts `next start` without waiting (for tests that expect it to refuse to start). */
export function spawnConsole(port: number, env: Record<string, string>): ServerProcess {
  const args = [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"];
  return withUrl(
    spawnServer(`console on ${port}`, args, {
      SESSION_SECRET,
      NEXT_DIST_DIR: path.relative(ROOT, DIST_DIR),
      // No watcher unless a spec asks: its polls would add to the hub calls the specs count.
      WATCH_IN_CONSOLE: "0",
      WATCH_DB: ":memory:",
      ...env,
    }),
    port,
  );
}

/** The sandbox hub (`lib/sandbox/main.ts`) on a free port, database in memory, demo seed. */
export async function startSandboxProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const server = withUrl(
    spawnServer(`sandbox on ${port}`, SANDBOX_ARGS, {
      SANDBOX_PORT: String(port),
      SANDBOX_DB: ":memory:",
      SANDBOX_SEED: "demo",
      SANDBOX_DELIVERY_TIMEOUT_MS: "1000",
      ...env,
    }),
    port,
  );
  await waitUntilReady(server, async () => server.output().includes(READY_LINE_PREFIX));
  return server;
}

/** Calls a sandbox admin route (Bearer token when given) and returns its JSON. */
export async function sandboxAdmin<T>(
  sandbox: ServerProcess,
  method: string,
  route: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const response = await fetch(`${sandbox.url}${route}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${route} → ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
