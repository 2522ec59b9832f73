/**
 * Security specs start their own servers, so they can read every log line and choose every
 * setting: the built console (`next start` from NEXT_DIST_DIR, default .next) and the sandbox,
 * each a child process on 127.0.0.1 whose stdout/stderr is kept. Ports: 3160-3169 / 4160-4179.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "../../..");
export const DIST_DIR = path.resolve(ROOT, process.env.NEXT_DIST_DIR || ".next");
export const SESSION_SECRET = "security-e2e-session-secret-0123456789abcdef";

export interface ServerProcess {
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
  /** Resolves with the exit code when the process ends by itself. */
  exited: Promise<number | null>;
}

function run(command: string, args: string[], env: Record<string, string>, url: string): ServerProcess {
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const chunks: string[] = [];
  child.stdout!.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    url,
    output: () => chunks.join(""),
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function waitUntil(server: ServerProcess, check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`${what} exited (code ${exitCode}) before it was ready:\n${server.output()}`);
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} was not ready within ${timeoutMs} ms:\n${server.output()}`);
}

/** The built console on its own port. `env` may point it at any hub. */
export async function startConsole(port: number, env: Record<string, string>): Promise<ServerProcess> {
  const server = spawnConsole(port, env);
  await waitUntil(server, async () => (await fetch(`${server.url}/api/session`)).ok, `console on ${port}`);
  return server;
}

/** Starts `next start` without waiting (for tests that expect it to refuse to start). */
export function spawnConsole(port: number, env: Record<string, string>): ServerProcess {
  return run(
    process.execPath,
    [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    { SESSION_SECRET, NEXT_DIST_DIR: path.relative(ROOT, DIST_DIR), ...env },
    `http://127.0.0.1:${port}`,
  );
}

/** The sandbox hub (`lib/sandbox/main.ts`) on its own port, database in memory, demo seed. */
export async function startSandboxProcess(port: number, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = run(
    process.execPath,
    ["--import", "tsx", "lib/sandbox/main.ts"],
    { SANDBOX_PORT: String(port), SANDBOX_DB: ":memory:", SANDBOX_SEED: "demo", SANDBOX_DELIVERY_TIMEOUT_MS: "1000", ...env },
    `http://127.0.0.1:${port}`,
  );
  await waitUntil(server, async () => server.output().includes("sandbox listening on"), `sandbox on ${port}`);
  return server;
}

/** Calls a sandbox admin route (Bearer token when given) and returns its JSON. */
export async function sandboxAdmin<T>(sandbox: ServerProcess, method: string, route: string, body?: unknown, token?: string): Promise<T> {
  const response = await fetch(`${sandbox.url}${route}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${route} → ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Signs in through the console's API (not the UI) and returns the Cookie header value. */
export async function signInCookie(consoleUrl: string, apiKey: string): Promise<string> {
  const response = await fetch(`${consoleUrl}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: consoleUrl },
    body: JSON.stringify({ apiKey }),
  });
  if (!response.ok) throw new Error(`sign-in → ${response.status} ${await response.text()}`);
  return response.headers.get("set-cookie")!.split(";")[0]!;
}
