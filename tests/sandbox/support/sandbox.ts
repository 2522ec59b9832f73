/** Starting an in-process sandbox for a test file: in memory, a free port, no demo unless asked. */
import { startSandbox, type Sandbox, type SandboxOptions } from "../../../lib/sandbox/server";
import { HubApi, SandboxAdmin } from "./clients";

export interface TestSandbox {
  sandbox: Sandbox;
  admin: SandboxAdmin;
  /** The spec's routes with `apiKey`. */
  api(apiKey: string | undefined): HubApi;
  /** Lines the sandbox logged (delivery errors and the like). */
  logLines: string[];
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const logLines: string[] = [];
  const sandbox = await startSandbox({
    host: "127.0.0.1",
    port: 0,
    dbPath: ":memory:",
    seed: "none",
    deliveryTimeoutMs: 5000,
    log: (line) => logLines.push(line),
    ...options,
  });
  return {
    sandbox,
    admin: new SandboxAdmin(sandbox.url, options.adminToken),
    api: (apiKey) => new HubApi(sandbox.url, apiKey),
    logLines,
  };
}
