/**
 * The bench's hands on the outbox, in its own process with the store's server modules
 * (`node --import tsx --conditions=react-server tests/bench/alert-outbox-store.ts <json>`), on the
 * store the environment names, as `npm run watcher` opens it. Adds the destinations of one
 * application (signed webhooks, PagerDuty, Teams, Discord), then records `incidents` alerts, each
 * twice (as two instances' engines would: the outbox keeps one). Prints one line of JSON.
 */
import { testAlert } from "@/lib/domain/alerts/message";
import type { AddDestination } from "@/lib/domain/inputs/alert-destination";
import { addDestination } from "@/lib/server/alerts/destinations";
import { enqueueAlert } from "@/lib/server/alerts/outbox";
import { configuredStoreOptions, openStoreContext } from "@/lib/server/store/context";

interface Input {
  appId: string;
  destinations: AddDestination[];
  incidents: number;
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? "{}") as Input;
  const ctx = await openStoreContext(configuredStoreOptions());
  try {
    for (const destination of input.destinations) await addDestination(ctx, input.appId, destination);
    const start = Date.now();
    let recorded = 0;
    for (let i = 0; i < input.incidents; i++) {
      const message = testAlert({
        idempotencyKey: `bench_incident_${i + 1}_${start}`,
        // Each incident's own time: the receiver tells incidents apart by it.
        at: new Date(start + i * 1000),
        application: { id: input.appId, name: "Bench" },
        destinationLabel: `incident ${i + 1}`,
        consoleUrl: "http://console.bench/alerts",
      });
      recorded += await enqueueAlert(ctx, input.appId, message);
      recorded += await enqueueAlert(ctx, input.appId, message);
    }
    process.stdout.write(`${JSON.stringify({ recorded })}\n`);
  } finally {
    await ctx.db.destroy();
  }
}

void main();
