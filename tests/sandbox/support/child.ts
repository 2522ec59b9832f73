/**
 * Running the sandbox's CLI (`lib/sandbox/main.ts`) as a child process, as `npm run sandbox`
 * does, on a free port: in its own process group, so a SIGKILL is a crash.
 */
import { READY_LINE_PREFIX } from "../../../lib/sandbox/config";
import { SANDBOX_ARGS, spawnServer, waitUntilReady, type ServerProcess } from "../../support/server-process";

export type SandboxProcess = ServerProcess & { url: string };

/** The URL of the first line that starts with READY_LINE_PREFIX, once printed. */
function readyUrl(output: string): string | undefined {
  return output
    .split("\n")
    .find((line) => line.startsWith(READY_LINE_PREFIX))
    ?.slice(READY_LINE_PREFIX.length)
    .trim();
}

export async function spawnSandbox(
  env: Record<string, string>,
  startTimeoutMs = 20_000,
): Promise<SandboxProcess> {
  const server = spawnServer("sandbox", SANDBOX_ARGS, {
    SANDBOX_ADMIN_TOKEN: "",
    SANDBOX_PORT: "0",
    SANDBOX_SEED: "none",
    ...env,
  });
  await waitUntilReady(server, async () => readyUrl(server.output()) !== undefined, startTimeoutMs);
  return Object.assign(server, { url: readyUrl(server.output())! });
}
