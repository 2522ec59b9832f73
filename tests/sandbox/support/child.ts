/**
 * Running `tsx lib/sandbox/main.ts` as a child process, as `npm run sandbox` does: in its own
 * process group, so a SIGKILL takes down tsx and the node process under it together (a crash).
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { READY_LINE_PREFIX } from "../../../lib/sandbox/config";

export const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = path.join(REPO_ROOT, "node_modules/.bin/tsx");

export interface SandboxProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` to the whole process group. */
  kill(signal: NodeJS.Signals): void;
}

export async function spawnSandbox(env: Record<string, string>, startTimeoutMs = 20_000): Promise<SandboxProcess> {
  const child = spawn(TSX, ["lib/sandbox/main.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, SANDBOX_ADMIN_TOKEN: "", SANDBOX_PORT: "0", SANDBOX_SEED: "none", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const kill = (signal: NodeJS.Signals) => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      kill("SIGKILL");
      reject(new Error(`the sandbox did not start within ${startTimeoutMs} ms:\n${output}`));
    }, startTimeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const line = output.split("\n").find((l) => l.startsWith(READY_LINE_PREFIX));
      if (line) {
        clearTimeout(timer);
        resolve(line.slice(READY_LINE_PREFIX.length).trim());
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
  return { child, url, output: () => output, exited, kill };
}
