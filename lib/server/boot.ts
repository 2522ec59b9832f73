import "server-only";
import { validateServerConfig } from "@/lib/server/config";

/**
 * Node.js only (imported by `instrumentation.ts` on that runtime): checks the configuration when
 * the server starts and exits with a message naming the variable when one is wrong.
 */
export function checkConfigAtBoot(): void {
  try {
    const { warnings } = validateServerConfig();
    for (const warning of warnings) console.warn(`[console] ${warning}`);
  } catch (error) {
    console.error(`[console] Refusing to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
