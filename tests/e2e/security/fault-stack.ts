/**
 * The built console in front of its own sandbox, with the sandbox's fault injection at hand
 * (`/_sandbox/faults`, lib/sandbox/README.md "Fault injection"): for the specs that switch
 * upstream faults on and off while both run (faults-sandbox.spec.ts, ui-recovery.spec.ts).
 */
import type { FaultSettingsInput } from "../../../lib/sandbox/faults";
import { sandboxAdmin, startConsole, startSandboxProcess, type ServerProcess } from "./support";

export const DEMO_KEY = "mh_demo_4f7d2c9a8b1e6f3d5a7c9e1b2d4f6a8c";
/** The demo webhook whose endpoint answers 200 (120 past logs, 14 Failed). */
export const DEMO_WEBHOOK = "9d7c1e20-4b3a-4c8e-a1f5-6e2d8b0c3a01";

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

/** A demo-seeded sandbox and a console in sandbox mode on it, each on its own loopback port. */
export async function startFaultStack(options: {
  consolePort: number;
  sandboxPort: number;
  hubTimeoutMs: number;
}): Promise<FaultStack> {
  const sandbox = await startSandboxProcess(options.sandboxPort);
  let consoleServer: ServerProcess;
  try {
    consoleServer = await startConsole(options.consolePort, {
      HUB_BASE_URL: sandbox.url,
      HUB_SANDBOX: "1",
      HUB_TIMEOUT_MS: String(options.hubTimeoutMs),
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
