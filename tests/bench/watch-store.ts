/**
 * The bench's hands on the watch's store, run in its own process with the store's server
 * modules (`node --import tsx --conditions=react-server tests/bench/watch-store.ts <command> <json>`),
 * on the store the environment names (DATABASE_URL or WATCH_DB, WATCH_SECRET, SESSION_SECRET), as
 * the console and `npm run watcher` open it. It prints one line of JSON.
 *
 * - `watch {"apiKey", "webhooks": [{ id, endpoint }]}`: watches the webhooks under the key's
 *   application (`addWatches`), for the watcher to poll from scratch.
 * - `fill {"apiKey", "webhooks", "logsPerWebhook", "spacingMs"}`: watches them and writes their
 *   logs straight into the store with the watcher's own writes (claim, `writeLogs` in large
 *   batches, finish the poll), as if the watcher had read them all just now; answers the seconds
 *   it took.
 */
import { addWatches } from "@/lib/server/watch/watches";
import { randomUUID } from "node:crypto";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { applicationId } from "@/lib/server/session/key-hash";
import { claimDue, finishPoll, writeLogs } from "@/lib/server/watch/cursor";
import { configuredStoreOptions, openStoreContext } from "@/lib/server/store/context";

interface WatchInput {
  apiKey: string;
  webhooks: Array<{ id: string; endpoint: string }>;
}

interface FillInput extends WatchInput {
  logsPerWebhook: number;
  /** Between two logs of a webhook, newest one just now. */
  spacingMs: number;
}

/** Rows per writeLogs call: one transaction each. */
const BATCH = 5000;
const OWNER = "bench-fill";

/** Outcomes cycle so that every webhook's newest log succeeds and one in four fails. */
const OUTCOMES = [
  { status: "Success", statusCode: 200, responseBody: '{"received":true}' },
  { status: "Failed", statusCode: 500, responseBody: '{"error":"Internal Server Error"}' },
  { status: "Success", statusCode: 201, responseBody: "" },
  { status: "Success", statusCode: 200, responseBody: "OK" },
] as const;

function logOf(webhookId: string, sendAt: number, index: number): WebhookLog {
  const outcome = OUTCOMES[index % OUTCOMES.length]!;
  return {
    id: randomUUID(),
    webhookId,
    ...outcome,
    sendAt: new Date(sendAt).toISOString(),
    createdDate: new Date(sendAt + 7).toISOString(),
    messageId: randomUUID(),
    webhook: { id: webhookId },
  } as WebhookLog;
}

async function main(): Promise<void> {
  const [command, json] = process.argv.slice(2);
  const input = JSON.parse(json ?? "{}") as FillInput;
  const ctx = await openStoreContext(configuredStoreOptions());
  const started = performance.now();
  try {
    await addWatches(
      ctx,
      applicationId(input.apiKey),
      input.apiKey,
      input.webhooks.map(({ id, endpoint }, i) => ({
        webhook: { id, endpoint, eventType: "Message", active: true, numberOfErrors: 0 },
        name: `Customer ${String(i + 1).padStart(3, "0")}`,
      })),
    );
    if (command === "fill") {
      const leaseMs = 3_600_000;
      const claimed = await claimDue(ctx, OWNER, input.webhooks.length, leaseMs);
      if (claimed.length !== input.webhooks.length)
        throw new Error(`claimed ${claimed.length} of ${input.webhooks.length} watches`);
      const now = Date.now();
      for (const { id } of input.webhooks) {
        // Newest first, as the hub lists them; index 0 (a success) is the newest.
        for (let from = 0; from < input.logsPerWebhook; from += BATCH) {
          const count = Math.min(BATCH, input.logsPerWebhook - from);
          const logs = Array.from({ length: count }, (_, i) =>
            logOf(id, now - (from + i) * input.spacingMs, from + i),
          );
          const last = from + count >= input.logsPerWebhook;
          await writeLogs(
            ctx,
            OWNER,
            id,
            logs,
            {
              head_id: from === 0 ? logs[0]!.id : undefined,
              tail_offset: last ? null : from + count,
              backfill_read: from + count,
              ...(last ? { history_complete: 1, complete_from: null } : {}),
            },
            leaseMs,
          );
        }
        await finishPoll(ctx, OWNER, id, { nextPollAt: now + 86_400_000, error: null });
      }
    } else if (command !== "watch") {
      throw new Error(`unknown command ${command}: watch or fill`);
    }
    process.stdout.write(`${JSON.stringify({ seconds: (performance.now() - started) / 1000 })}\n`);
  } finally {
    await ctx.db.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `watch-store: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
