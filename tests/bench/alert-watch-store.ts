/**
 * The bench's hands on the alerts' store, in its own process with the store's server modules
 * (`node --import tsx --conditions=react-server tests/bench/alert-watch-store.ts <json>`), on the
 * store the environment names, as `npm run watcher` opens it. For each application: watches its
 * webhooks under its key and adds its signed-webhook destinations, with the default rules. Prints
 * one line of JSON.
 */
import { addWatches } from "@/lib/server/watch/watches";
import { addDestination } from "@/lib/server/alerts/destinations";
import { applicationId } from "@/lib/server/session/key-hash";
import { configuredStoreOptions, openStoreContext } from "@/lib/server/store/context";

interface Input {
  secret: string;
  applications: Array<{
    apiKey: string;
    webhooks: Array<{ id: string; endpoint: string }>;
    destinations: Array<{ label: string; url: string }>;
  }>;
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? "{}") as Input;
  const ctx = await openStoreContext(configuredStoreOptions());
  try {
    let watched = 0;
    for (const app of input.applications) {
      const appId = applicationId(app.apiKey);
      const watches = await addWatches(
        ctx,
        appId,
        app.apiKey,
        app.webhooks.map(({ id, endpoint }, i) => ({
          webhook: { id, endpoint, eventType: "Message", active: true, numberOfErrors: 0 },
          name: `Customer ${String(i + 1).padStart(3, "0")}`,
        })),
      );
      watched += watches.length;
      // As an operator who raised ALERTS_MAX_DESTINATIONS to what the bench adds.
      for (const { label, url } of app.destinations)
        await addDestination(
          ctx,
          appId,
          { kind: "webhook", label, url, secret: input.secret },
          Date.now(),
          Math.max(1, app.destinations.length),
        );
    }
    process.stdout.write(`${JSON.stringify({ watched })}\n`);
  } finally {
    await ctx.db.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `alert-watch-store: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
