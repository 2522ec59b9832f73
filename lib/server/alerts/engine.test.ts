import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addWatches } from "@/lib/server/watch/watches";
import { addDestination } from "@/lib/server/alerts/destinations";
import { applicationId } from "@/lib/server/session/key-hash";
import type { StoreContext } from "@/lib/server/store/context";

import { createWatcher, type Watcher } from "@/lib/server/watch/watcher";
import { waitFor } from "@/tests/sandbox/support/clients";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { startMemoryHub, type MemoryHub, type MemoryWebhook } from "@/tests/support/memory-hub";
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
    .select(["alert_kind", "destination_label", "title", "payload"])
    .orderBy("created_at")
    .execute();

const WATCHER_SETTINGS = {
  intervalSeconds: 1,
  backfillCount: 1000,
  backfillAgeMs: 7 * 86_400_000,
  retentionDays: 30,
  concurrency: 2,
  keyRequestsPerMinute: 100_000,
  leaseSeconds: 2,
};

/** The memory hub's application, with a Slack destination: each alert it raises is recorded once in the outbox. */
async function applicationWithSlack(ctx: StoreContext): Promise<string> {
  const appId = applicationId(hub.apiKey);
  await addDestination(ctx, appId, {
    kind: "slack",
    label: "Ops Slack",
    url: "https://hooks.slack.example/a",
  });
  return appId;
}

/** Watches `webhook` and starts the watcher. */
async function watchWebhook(ctx: StoreContext, appId: string, webhook: MemoryWebhook): Promise<void> {
  const { id, endpoint, eventType, active, numberOfErrors } = webhook;
  await addWatches(ctx, appId, hub.apiKey, [
    { webhook: { id, endpoint, eventType, active, numberOfErrors } },
  ]);
  watcher = createWatcher(ctx, WATCHER_SETTINGS);
}

/** The outbox's rows, once it holds an alert of `kind`. */
const outboxWith = (ctx: StoreContext, kind: string) =>
  waitFor(`a ${kind} alert in the outbox`, async () => {
    const rows = await alerts(ctx);
    return rows.some((row) => row.alert_kind === kind) ? rows : undefined;
  });

describe("the watcher's alert engine", () => {
  it("records a firing alert after the polls that find a failing streak, and its recovery once it delivers 3 times in a row", async () => {
    const ctx = await databases.fresh("sqlite");
    const appId = await applicationWithSlack(ctx);
    const webhook = hub.webhook();
    hub.deliver(webhook, 8, () => true);
    await watchWebhook(ctx, appId, webhook);
    const fired = await outboxWith(ctx, "firing");
    const message = JSON.parse(fired.find((row) => row.alert_kind === "firing")!.payload!);
    expect(message).toMatchObject({
      conditions: [{ rule: { id: "streak" } }],
      headline: "8 failures in a row",
      links: { webhook: `https://console.example/webhooks/${webhook.id}?app=${appId}` },
    });

    hub.deliver(webhook, 3);
    const after = await outboxWith(ctx, "recovered");
    expect(after.map((row) => row.alert_kind).filter((kind) => kind === "firing")).toHaveLength(1);
    expect(JSON.parse(after.at(-1)!.payload!).headline).toMatch(/^recovered after 8 failures/);
  });

  it("stores every alert redacted in the outbox: the endpoint's credentials and query, the bodies' secrets, the operator's patterns", async () => {
    stubEnv({ REDACT_PATTERNS: JSON.stringify(["ORD-\\d{6}"]) });
    // The watch keeps whole bodies here, as by default, so every secret reaches the alert.
    const ctx = await databases.fresh("sqlite", { bodyCapBytes: 4096 });
    const appId = await applicationWithSlack(ctx);
    const webhook = hub.webhook();
    webhook.endpoint = "https://ops:hunter2@acme.example/hooks?token=tok-endpoint-1&shop=acme-shop-2";
    hub.deliver(webhook, 8, () => true);
    for (const log of webhook.logs) {
      log.responseBody =
        '{"error":"denied","db_password":"pw-body-3","card":"4111 1111 1111 1111","order":"ORD-123456"}\n' +
        "Authorization: Bearer bearer-body-4567\nCookie: sid=cookie-body-5";
    }
    await watchWebhook(ctx, appId, webhook);
    await outboxWith(ctx, "firing");
    hub.deliver(webhook, 3);
    const rows = await outboxWith(ctx, "recovered");

    const stored = JSON.stringify(rows);
    for (const secret of [
      "hunter2",
      "tok-endpoint-1",
      "acme-shop-2",
      "pw-body-3",
      "4111 1111 1111 1111",
      "ORD-123456",
      "bearer-body-4567",
      "cookie-body-5",
    ])
      expect(stored).not.toContain(secret);
    const firing = JSON.parse(rows.find((row) => row.alert_kind === "firing")!.payload!);
    expect(firing.webhook.endpoint).toBe(
      "https://[redacted]@acme.example/hooks?token=[redacted]&shop=[redacted]",
    );
    expect(firing.samples[0].body).toBe(
      '{"error":"denied","db_password":"[redacted]","card":"[redacted]","order":"[redacted]"}\n' +
        "Authorization: Bearer [redacted]\nCookie: [redacted]",
    );
  });
});
