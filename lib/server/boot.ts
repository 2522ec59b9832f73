import "server-only";
import { validateServerConfig } from "@/lib/server/config";

/**
 * A console server on Node.js, starting (from `register`, before it takes requests): checks the
 * configuration and exits with a message naming the variable when one is wrong.
 */
export function startNodeServer(): void {
  try {
    const { warnings } = validateServerConfig();
    for (const warning of warnings) console.warn(`[console] ${warning}`);
  } catch (error) {
    console.error(`[console] Refusing to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
