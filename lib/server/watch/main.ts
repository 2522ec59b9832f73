/**
 * The watcher alone (`npm run watcher`), with the console's environment; the consoles then run
 * with WATCH_IN_CONSOLE=0. Several watchers share the work through leases.
 */
import { validateServerConfig } from "@/lib/server/config";
import { startWatcher } from "@/lib/server/watch/watcher";

async function main(): Promise<void> {
  try {
    const { warnings } = validateServerConfig();
    for (const warning of warnings) console.warn(`[watcher] ${warning}`);
    const watcher = await startWatcher();
    console.log(`[watcher] polling as ${watcher.owner}`);
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      process.once(signal, () => {
        console.warn(`[watcher] ${signal}: stopping.`);
        void watcher.stop().then(() => process.exit(0));
      });
    }
  } catch (error) {
    console.error(`[watcher] Refusing to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

void main();
