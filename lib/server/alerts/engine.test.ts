import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addDestination } from "@/lib/server/alerts/destinations";
import { applicationId } from "@/lib/server/session/key-hash";
import type { StoreContext } from "@/lib/server/watch/context";
import { storeOver } from "@/lib/server/watch/store";
import { createWatcher, type Watcher } from "@/lib/server/watch/watcher";
import { waitFor } from "@/tests/sandbox/support/clients";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { startMemoryHub, type MemoryHub } from "@/tests/support/memory-hub";
import { watchDatabases } from "@/tests/support/watch-databases";

const databases = watchDatabases();

let hub: MemoryHub;
let watcher: Watcher | undefined;

beforeEach(async () => {
  hub = await startMemoryHub();
  stubEnv({
    HUB_BASE_URL: hub.url,
    SESSION_SECRET: "a-session-secret-for-tests-32-chars!",
    PUBLIC_ORIGIN: "https://console.example",
  });
});

afterEach(async () => {
  await watcher?.stop();
  await hub.close();
  restoreEnv();
});

const alerts = (ctx: StoreContext) =>
  ctx.db
    .selectFrom("alert_deliveries")
    .select(["alert_kind", "destination_label", "payload"])
    .orderBy("created_at")
    .execute();

describe("the watcher's alert engine", () => {
  it("records a firing alert after the polls that find a failing streak, and its recovery after the next success", async () => {
    const ctx = await databases.fresh("sqlite");
    const appId = applicationId(hub.apiKey);
    await addDestination(ctx, appId, {
      kind: "slack",
      label: "Ops Slack",
      url: "https://hooks.slack.example/a",
    });
    const webhook = hub.webhook();
    hub.deliver(webhook, 8, () => true);
    const { id, endpoint, eventType, active, numberOfErrors } = webhook;
    await storeOver(ctx).addWatches(appId, hub.apiKey, [
      { webhook: { id, endpoint, eventType, active, numberOfErrors } },
    ]);
    watcher = createWatcher(ctx, {
      intervalSeconds: 1,
      backfillCount: 1000,
      backfillAgeMs: 7 * 86_400_000,
      retentionDays: 30,
      concurrency: 2,
      keyRequestsPerMinute: 100_000,
      leaseSeconds: 2,
    });
    const fired = await waitFor("a firing alert in the outbox", async () => {
      const rows = await alerts(ctx);
      return rows.some((row) => row.alert_kind === "firing") ? rows : undefined;
    });
    const message = JSON.parse(fired.find((row) => row.alert_kind === "firing")!.payload!);
    expect(message).toMatchObject({
      rule: { id: "streak" },
      headline: "8 failures in a row",
      links: { webhook: `https://console.example/webhooks/${id}?app=${appId}` },
    });

    hub.deliver(webhook, 1);
    const after = await waitFor("a resolved alert in the outbox", async () => {
      const rows = await alerts(ctx);
      return rows.some((row) => row.alert_kind === "resolved") ? rows : undefined;
    });
    expect(after.map((row) => row.alert_kind).filter((kind) => kind === "firing")).toHaveLength(1);
    expect(JSON.parse(after.at(-1)!.payload!).headline).toMatch(/^recovered after 8 failures/);
  });
});
