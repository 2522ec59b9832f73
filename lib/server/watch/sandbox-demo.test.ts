import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { overviewRows } from "@/lib/server/watch/overview-rows";
import { listWatches, removeWatch } from "@/lib/server/watch/watches";
import { applicationId } from "@/lib/server/session/key-hash";
import { watchSandboxDemo } from "@/lib/server/watch/demo-watches";

import { createWatcher } from "@/lib/server/watch/watcher";
import { waitFor } from "@/tests/sandbox/support/clients";
import { startTestSandbox, type TestSandbox } from "@/tests/sandbox/support/sandbox";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { watchDatabases } from "@/tests/support/watch-databases";

const databases = watchDatabases();
let hub: TestSandbox;

beforeAll(async () => {
  hub = await startTestSandbox({ seed: "demo" });
});
afterAll(async () => {
  await hub.sandbox.close();
});
afterEach(() => restoreEnv());

it("in sandbox mode watches the demo's webhooks out of the box, and stores every log the sandbox lists", async () => {
  stubEnv({
    HUB_BASE_URL: hub.sandbox.url,
    HUB_SANDBOX: "1",
    SESSION_SECRET: "a-session-secret-for-tests-32-chars!",
  });
  const demo = hub.sandbox.demo()!;
  const appId = applicationId(demo.apiKey);
  const ctx = await databases.fresh("sqlite", { bodyCapBytes: 4096 });
  await watchSandboxDemo(ctx);
  const watches = await listWatches(ctx, [appId]);
  expect(watches.map((w) => w.webhookId).sort()).toEqual(demo.webhooks.map((w) => w.id).sort());

  // A webhook a person stopped watching stays unwatched at the next start.
  await removeWatch(ctx, [appId], watches[0]!.webhookId);
  await watchSandboxDemo(ctx);
  expect(await listWatches(ctx, [appId])).toHaveLength(watches.length - 1);

  const watcher = createWatcher(ctx, {
    intervalSeconds: 1,
    backfillCount: 10_000,
    backfillAgeMs: 365 * 86_400_000,
    retentionDays: 3650,
    concurrency: 4,
    keyRequestsPerMinute: 100_000,
    leaseSeconds: 5,
  });
  try {
    const api = hub.api(demo.apiKey);
    for (const watch of watches.slice(1)) {
      const hubIds: string[] = [];
      for (let offset = 0; ; offset += 50) {
        const page = await api.logPage(watch.webhookId, { offset, limit: 50 });
        hubIds.push(...page.data.map((log) => log.id));
        if (page.data.length < 50) break;
      }
      // Every log the hub listed is stored (the demo may deliver more meanwhile).
      await waitFor(`the store to hold the logs of ${watch.name}`, async () => {
        const rows = await ctx.db
          .selectFrom("watch_logs")
          .select("id")
          .where("webhook_id", "=", watch.webhookId)
          .execute();
        return JSON.stringify(rows.map((r) => r.id).sort()) === JSON.stringify(hubIds.sort())
          ? true
          : undefined;
      });
    }
  } finally {
    await watcher.stop();
  }
  const rows = await overviewRows(ctx, [appId]);
  expect(rows).toHaveLength(watches.length - 1);
  expect(rows.every((row) => row.asOf !== null && row.active !== null)).toBe(true);
  expect(rows[0]!.failingStreak).not.toBeNull();
}, 120_000);
