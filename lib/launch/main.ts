/**
 * `npm run dev` (tsx lib/launch/main.ts dev) and `npm start` (... start): runs the console, and
 * first the local sandbox hub when HUB_BASE_URL is unset.
 *
 * - Sandbox: a child `tsx lib/sandbox/main.ts` (its output prefixed `[sandbox]`); the console
 *   starts once it has printed its URL and `/_sandbox/health` answers.
 * - Console: a child `next dev|start -p $PORT` with HUB_BASE_URL=<sandbox URL> and HUB_SANDBOX=1.
 * - SIGINT/SIGTERM are passed on to the children, the console first (it finishes its requests in
 *   flight), then the sandbox; when either child exits on its own, the other is stopped and the
 *   launcher exits non-zero.
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import readline from "node:readline";
import { READY_LINE_PREFIX } from "../sandbox/config";
import {
  consoleCommand,
  consoleHost,
  consolePort,
  consoleUrl,
  parseMode,
  sandboxCommand,
  stopTimeoutMs,
  usesSandbox,
  type Command,
  type Env,
} from "./plan";

const ROOT = path.resolve(__dirname, "../..");
const SANDBOX_START_TIMEOUT_MS = 30_000;

const say = (line: string) => process.stdout.write(`${line}\n`);
const warn = (line: string) => process.stderr.write(`${line}\n`);

interface Child {
  name: string;
  process: ChildProcess;
  exited: Promise<number>;
}

const children: Child[] = [];
let stopping = false;

function start(name: string, command: Command, pipeOutput: boolean): Child {
  const child = spawn(command.command, command.args, {
    cwd: ROOT,
    env: { ...process.env, ...command.env },
    stdio: pipeOutput ? ["inherit", "pipe", "pipe"] : "inherit",
  });
  if (pipeOutput) {
    for (const [stream, write] of [
      [child.stdout, say],
      [child.stderr, warn],
    ] as const) {
      if (stream)
        readline.createInterface({ input: stream }).on("line", (line) => write(`[${name}] ${line}`));
    }
  }
  const exited = new Promise<number>((resolve) => {
    child.once("error", (error) => {
      warn(`Could not run ${name} (${command.command}): ${error.message}. Run npm install first.`);
      resolve(1);
    });
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 + (signalNumber(signal) ?? 1) : 1)));
  });
  const entry = { name, process: child, exited };
  children.push(entry);
  void exited.then((code) => onChildExit(entry, code));
  return entry;
}

function signalNumber(signal: NodeJS.Signals): number | undefined {
  return { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal as string];
}

/** A child that exits when we did not ask it to takes the whole launcher down, non-zero. */
function onChildExit(child: Child, code: number): void {
  if (stopping) return;
  warn(`${child.name} exited (code ${code}); stopping.`);
  void stopAll("SIGTERM").then(() => process.exit(code === 0 ? 1 : code));
}

/**
 * Stops the children newest first: the console (which finishes its requests in flight, and they
 * may still call the sandbox), then the sandbox. Each is killed if it outlasts its deadline.
 */
async function stopAll(signal: NodeJS.Signals): Promise<void> {
  stopping = true;
  for (const child of [...children].reverse()) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) continue;
    child.process.kill(signal);
    const deadline = setTimeout(() => child.process.kill("SIGKILL"), stopTimeoutMs(process.env));
    await child.exited;
    clearTimeout(deadline);
  }
}

/** The sandbox's URL, read from its first line of output, once `/_sandbox/health` answers. */
async function waitForSandbox(child: Child): Promise<string> {
  const stdout = child.process.stdout;
  if (!stdout) throw new Error("the sandbox's output is not readable");
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the sandbox did not start within ${SANDBOX_START_TIMEOUT_MS / 1000} s`)),
      SANDBOX_START_TIMEOUT_MS,
    );
    readline.createInterface({ input: stdout }).on("line", (line) => {
      if (!line.startsWith(READY_LINE_PREFIX)) return;
      clearTimeout(timer);
      resolve(line.slice(READY_LINE_PREFIX.length).trim());
    });
    void child.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited (code ${code}) before it was ready; see its output above`));
    });
  });
  const health = await fetch(`${url}/_sandbox/health`);
  if (!health.ok) throw new Error(`the sandbox at ${url} answered ${health.status} to /_sandbox/health`);
  return url;
}

/** Resolves once something accepts connections on the console's port. */
async function waitForPort(port: number, host: string, child: Child): Promise<boolean> {
  for (;;) {
    if (stopping || child.process.exitCode !== null) return false;
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ port, host });
      const done = (accepted: boolean) => {
        // Closed at once: an open connection would hold the console's graceful stop back.
        socket.destroy();
        resolve(accepted);
      };
      socket.once("connect", () => done(true));
      socket.once("error", () => done(false));
      socket.setTimeout(1000, () => done(false));
    });
    if (open) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** How to sign in, from the sandbox's demo route (it knows whether the demo key still works). */
async function signInHint(sandboxUrl: string, env: Env): Promise<string> {
  const token = env.SANDBOX_ADMIN_TOKEN?.trim();
  try {
    const answer = await fetch(`${sandboxUrl}/_sandbox/demo`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (answer.ok) {
      const demo: unknown = await answer.json();
      const apiKey = typeof demo === "object" && demo !== null && "apiKey" in demo ? String(demo.apiKey) : "";
      return `sign in with "Use sandbox demo key" (or paste the demo key ${apiKey})`;
    }
    if (answer.status === 404) {
      return "the sandbox has no demo data (SANDBOX_SEED=none): create an application with POST /_sandbox/applications and sign in with its key";
    }
    const body = (await answer.json().catch(() => null)) as { error?: { message?: string } } | null;
    return `sign in with an API key (${body?.error?.message ?? `the sandbox's demo route answered ${answer.status}`})`;
  } catch {
    return "sign in with an API key";
  }
}

async function main(): Promise<void> {
  const mode = parseMode(process.argv[2]);
  if (!mode) {
    warn("Usage: tsx lib/launch/main.ts dev|start   (npm run dev, npm start)");
    process.exit(2);
  }
  const env: Env = { ...process.env };

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) {
        void stopAll("SIGKILL");
        return;
      }
      warn(`\n${signal}: stopping the console${usesSandbox(env) ? " and the sandbox" : ""}...`);
      void stopAll(signal).then(() => process.exit(0));
    });
  }

  let sandboxUrl: string | undefined;
  if (usesSandbox(env)) {
    const sandbox = start("sandbox", sandboxCommand(env, ROOT), true);
    try {
      sandboxUrl = await waitForSandbox(sandbox);
    } catch (error) {
      warn(`The sandbox hub did not start: ${error instanceof Error ? error.message : String(error)}`);
      await stopAll("SIGTERM");
      process.exit(1);
    }
  }
  if (stopping) return;

  const nextChild = start("console", consoleCommand(mode, env, ROOT, sandboxUrl), false);
  if (!(await waitForPort(Number(consolePort(env)), consoleHost(env) ?? "127.0.0.1", nextChild))) return;

  const hint = sandboxUrl
    ? await signInHint(sandboxUrl, env)
    : `sign in with an API key of the Messaging Hub at ${env.HUB_BASE_URL?.trim()}`;
  say("");
  say(`Console: ${consoleUrl(env)} — ${hint}`);
  if (sandboxUrl) say(`Sandbox hub: ${sandboxUrl} (demo webhooks, admin routes: lib/sandbox/README.md)`);
  say("Stop with Ctrl+C.");
}

void main();
