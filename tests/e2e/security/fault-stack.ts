/**
 * The built console in front of its own sandbox, with the sandbox's fault injection at hand
 * (`/_sandbox/faults`, lib/sandbox/README.md "Fault injection"): for the specs that switch
 * upstream faults on and off while both run (ui-recovery.spec.ts).
 */
import type { FaultSettingsInput } from "../../../lib/sandbox/faults";
import { DEMO_API_KEY, DEMO_WEBHOOKS } from "../../../lib/sandbox/seed";
import { sandboxAdmin, startConsole, startSandboxProcess, type ServerProcess } from "./support";

export const DEMO_KEY = DEMO_API_KEY;
/** The demo webhook whose endpoint answers 200 (120 past logs, 14 Failed). */
export const DEMO_WEBHOOK = DEMO_WEBHOOKS[0]!.id;

/** `GET /_sandbox/faults`, the parts the specs read. */
export interface FaultState {
  active: boolean;
  injected: { requests: number; delayed: number; errors: number; rateLimited: number; garbled: number };
}

export interface FaultStack {
  sandbox: ServerProcess;
  console: ServerProcess;
  /** Replaces every fault setting (absent = off). */
  setFaults(settings: FaultSettingsInput): Promise<FaultState>;
  faultsOff(): Promise<FaultState>;
  faultState(): Promise<FaultState>;
  stop(): Promise<void>;
}

/** A demo-seeded sandbox and a console in sandbox mode on it, each on a free loopback port. */
export async function startFaultStack(options: {
  hubTimeoutMs: number;
  /** More of the console's environment (its watcher is off unless this turns it on). */
  env?: Record<string, string>;
}): Promise<FaultStack> {
  const sandbox = await startSandboxProcess();
  let consoleServer: ServerProcess;
  try {
    consoleServer = await startConsole({
      HUB_BASE_URL: sandbox.url,
      HUB_SANDBOX: "1",
      HUB_TIMEOUT_MS: String(options.hubTimeoutMs),
      ...options.env,
    });
  } catch (error) {
    await sandbox.stop();
    throw error;
  }
  const faults = (method: string, body?: FaultSettingsInput) =>
    sandboxAdmin<FaultState>(sandbox, method, "/_sandbox/faults", body);
  return {
    sandbox,
    console: consoleServer,
    setFaults: (settings) => faults("PUT", settings),
    faultsOff: () => faults("DELETE"),
    faultState: () => faults("GET"),
    async stop() {
      await consoleServer.stop();
      await sandbox.stop();
    },
  };
}
