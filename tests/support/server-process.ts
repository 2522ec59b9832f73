/**
 * A server that a test or the bench starts as a child process (the sandbox, or `next start` of a
 * build): run by this node, in its own process group (so stopping it, or a SIGKILL for a crash
 * test, takes whatever it started too), with everything it prints kept for assertions and errors.
 * One implementation for the sandbox tests, the e2e specs that start their own servers and the
 * bench.
 */
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "../..");
export const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
/** Arguments for node that run the sandbox's CLI (tsx's loader: the pid is the sandbox's own). */
export const SANDBOX_ARGS = ["--import", "tsx", path.join(ROOT, "lib/sandbox/main.ts")];

export interface ServerProcess {
  name: string;
  pid: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Settles when the process ends, with how it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` to the process group (nothing if it has ended). */
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after 5 s; resolves once it has exited. */
  stop(): Promise<void>;
}

/** Starts `node <args>` from the repository root with `env` on top of this process's environment. */
export function spawnServer(name: string, args: string[], env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  if (child.pid === undefined) throw new Error(`could not start the ${name}`);
  const pid = child.pid;
  const chunks: string[] = [];
  child.stdout!.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  const kill = (signal: NodeJS.Signals) => {
    if (!running()) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  };
  return {
    name,
    pid,
    output: () => chunks.join(""),
    exited,
    kill,
    async stop() {
      if (!running()) return;
      kill("SIGTERM");
      const timer = setTimeout(() => kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Resolves once `check` answers true (its failures count as "not yet"). Rejects, with the
 * process's output, when the process exits first or `timeoutMs` passes; it is stopped then.
 */
export async function waitUntilReady(
  server: ServerProcess,
  check: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let ended: string | undefined;
  void server.exited.then(({ code, signal }) => (ended = `exited (${code ?? signal})`));
  while (Date.now() < deadline) {
    if (ended) throw new Error(`the ${server.name} ${ended} before it was ready:\n${server.output()}`);
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  await server.stop();
  throw new Error(`the ${server.name} was not ready within ${timeoutMs / 1000} s:\n${server.output()}`);
}

/** A readiness check: `url` answers with a status `ok` accepts. */
export function answers(
  url: string,
  ok: (status: number) => boolean = (status) => status === 200,
): () => Promise<boolean> {
  return async () => {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000), redirect: "manual" });
    await response.arrayBuffer();
    return ok(response.status);
  };
}

// ---- servers started for a test or the bench, stopped together -------------------------

export interface Server {
  name: string;
  url: string;
  port: number;
  pid: number;
  /** Everything the process printed, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

const running = new Set<Server>();

/** Stops every process this module started that is still running (on error or Ctrl-C). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((s) => s.stop()));
}

/** A port nothing listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** How to start a server, and the path whose answer says it is ready. */
export interface ServerSpec {
  name: string;
  port: number;
  args: string[];
  env: Record<string, string>;
  readyPath: string;
  ready: (status: number) => boolean;
}

/** Starts a server and waits until `readyPath` answers as `ready` wants; `stopAll` stops it with the rest. */
export async function startServer(spec: ServerSpec): Promise<Server> {
  const child = spawnServer(spec.name, spec.args, spec.env);
  const url = `http://127.0.0.1:${spec.port}`;
  const server: Server = {
    name: spec.name,
    url,
    port: spec.port,
    pid: child.pid,
    output: child.output,
    stop: async () => {
      running.delete(server);
      await child.stop();
    },
  };
  running.add(server);
  await waitUntilReady(child, answers(url + spec.readyPath, spec.ready), 90_000);
  return server;
}

export interface SandboxStart {
  port: number;
  dbPath: string;
  seed: "demo" | "none";
  deliveryTimeoutMs?: number;
}

export async function startSandboxProcess(options: SandboxStart): Promise<Server> {
  return startServer({
    name: "sandbox",
    port: options.port,
    args: SANDBOX_ARGS,
    env: {
      SANDBOX_HOST: "127.0.0.1",
      SANDBOX_PORT: String(options.port),
      SANDBOX_DB: options.dbPath,
      SANDBOX_SEED: options.seed,
      SANDBOX_DELIVERY_TIMEOUT_MS: String(options.deliveryTimeoutMs ?? 5000),
    },
    readyPath: "/_sandbox/health",
    ready: (status) => status === 200,
  });
}

export interface ConsoleStart {
  port: number;
  hubBaseUrl: string;
  sessionSecret: string;
  name?: string;
  /** Options for node itself, before next's script (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** More environment variables for the console. */
  env?: Record<string, string>;
}

/** `next start` of the existing build, on loopback, talking to `hubBaseUrl` in sandbox mode. */
export async function startConsoleProcess(options: ConsoleStart): Promise<Server> {
  return startServer({
    name: options.name ?? "console",
    port: options.port,
    args: [...(options.nodeArgs ?? []), NEXT_BIN, "start", "-p", String(options.port), "-H", "127.0.0.1"],
    env: {
      NODE_ENV: "production",
      HUB_BASE_URL: options.hubBaseUrl,
      HUB_SANDBOX: "1",
      SESSION_SECRET: options.sessionSecret,
      NEXT_TELEMETRY_DISABLED: "1",
      ...options.env,
    },
    readyPath: "/login",
    ready: (status) => status === 200,
  });
}
