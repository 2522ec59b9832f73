import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { addWatches, keyStates, listWatches, replaceKey } from "@/lib/server/watch/watches";
import { overviewRows, watcherHealth } from "@/lib/server/watch/overview-rows";
import { applicationId } from "@/lib/server/session/key-hash";
import type { StoreContext } from "@/lib/server/store/context";
import { openStoreContext } from "@/lib/server/store/context";
import { createWatcher, type Watcher, type WatcherSettings } from "@/lib/server/watch/watcher";
import { waitFor } from "@/tests/sandbox/support/clients";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { sendJson } from "@/tests/support/fake-upstream";
import { startMemoryHub, type MemoryHub, type MemoryWebhook } from "@/tests/support/memory-hub";
import { TEST_SECRET, watchDatabases } from "@/tests/support/watch-databases";

const databases = watchDatabases();

const SETTINGS: WatcherSettings = {
  intervalSeconds: 1,
  backfillCount: 10_000,
  backfillAgeMs: 7 * 86_400_000,
  retentionDays: 30,
  concurrency: 2,
  keyRequestsPerMinute: 100_000,
  leaseSeconds: 2,
};

let hub: MemoryHub;
const watchers: Watcher[] = [];

beforeEach(async () => {
  hub = await startMemoryHub();
  stubEnv({ HUB_BASE_URL: hub.url, SESSION_SECRET: "a-session-secret-for-tests-32-chars!" });
});

afterEach(async () => {
  await Promise.all(watchers.splice(0).map((w) => w.stop()));
  await hub.close();
  restoreEnv();
});

function start(ctx: StoreContext, settings: Partial<WatcherSettings> = {}, owner?: string): Watcher {
  const watcher = createWatcher(ctx, { ...SETTINGS, ...settings }, owner);
  watchers.push(watcher);
  return watcher;
}

async function watch(ctx: StoreContext, ...webhooks: MemoryWebhook[]) {
  await addWatches(
    ctx,
    applicationId(hub.apiKey),
    hub.apiKey,
    webhooks.map(({ id, endpoint, eventType, active, numberOfErrors }) => ({
      webhook: { id, endpoint, eventType, active, numberOfErrors },
    })),
  );
}

async function storedIds(ctx: StoreContext, webhookId: string): Promise<string[]> {
  const rows = await ctx.db
    .selectFrom("watch_logs")
    .select("id")
    .where("webhook_id", "=", webhookId)
    .execute();
  return rows.map((row) => row.id).sort();
}

const hubIds = (webhook: MemoryWebhook, count = webhook.logs.length) =>
  webhook.logs
    .slice(0, count)
    .map((log) => log.id)
    .sort();

/** Waits until the store holds exactly these ids for the webhook. */
function storedEqual(ctx: StoreContext, webhook: MemoryWebhook, ids: () => string[], timeoutMs = 30_000) {
  return waitFor(
    `the store to hold the hub's logs of ${webhook.id}`,
    async () => {
      const stored = await storedIds(ctx, webhook.id);
      return JSON.stringify(stored) === JSON.stringify(ids()) ? stored : undefined;
    },
    timeoutMs,
  );
}

const calls = (path: string) => hub.upstream.requests.filter((r) => r.url.split("?")[0] === path).length;
const webhookPath = (webhook: MemoryWebhook) => `/v1/organization/webhook/${webhook.id}`;

describe("the watcher (embedded database)", () => {
  it("backfills up to the horizon on first watch, then reads only what is new", async () => {
    const ctx = await databases.fresh("sqlite");
    const webhook = hub.webhook();
    hub.deliver(webhook, 260, (i) => i % 7 === 0);
    await watch(ctx, webhook);
    start(ctx, { backfillCount: 200 });
    await storedEqual(ctx, webhook, () => hubIds(webhook, 200));
    const state = await ctx.db
      .selectFrom("watch_state")
      .selectAll()
      .where("webhook_id", "=", webhook.id)
      .executeTakeFirstOrThrow();
    expect(state).toMatchObject({
      tail_offset: null,
      stored_logs: 200,
      complete_from: Date.parse(webhook.logs[199]!.createdDate),
    });

    hub.deliver(webhook, 30);
    await storedEqual(ctx, webhook, () => hubIds(webhook, 230));

    // Nothing new: each poll is the webhook and one page of logs.
    const before = hub.upstream.requests.length;
    const polls = calls(webhookPath(webhook));
    await waitFor("two more polls", async () =>
      calls(webhookPath(webhook)) >= polls + 2 ? true : undefined,
    );
    const made = hub.upstream.requests.slice(before);
    const pollsMade = made.filter((r) => r.url === webhookPath(webhook)).length;
    expect(made.length).toBeLessThanOrEqual(2 * pollsMade + 1);
    expect((await overviewRows(ctx, [applicationId(hub.apiKey)]))[0]).toMatchObject({
      numberOfErrors: webhook.numberOfErrors,
      attempts24h: 230,
    });
  });

  it("taken up after a crash mid-backfill, loses no log and stores none twice", async () => {
    const ctx = await databases.fresh("sqlite");
    const webhook = hub.webhook();
    hub.deliver(webhook, 1500);
    await watch(ctx, webhook);
    // A slow hub, so the first watcher is stopped with the backfill half done.
    let slow = true;
    const answer = hub.upstream.handle;
    hub.upstream.handle = (req, res, recorded) => {
      if (!slow || !req.url?.includes("webhook-log")) return answer(req, res, recorded);
      setTimeout(() => void answer(req, res, recorded), 30);
    };
    const first = start(ctx, { concurrency: 1 }, "first");
    await waitFor("part of the backfill", async () => {
      const state = await ctx.db.selectFrom("watch_state").selectAll().executeTakeFirstOrThrow();
      return state.stored_logs >= 100 ? state : undefined;
    });
    await first.stop();
    slow = false;
    const partial = await storedIds(ctx, webhook.id);
    expect(partial.length).toBeLessThan(1500);

    hub.deliver(webhook, 120);
    start(ctx, {}, "second");
    await storedEqual(ctx, webhook, () => hubIds(webhook));
    // The backfill knows it reached the end once a page comes back short.
    const state = await waitFor("the backfill done", async () => {
      const row = await ctx.db.selectFrom("watch_state").selectAll().executeTakeFirstOrThrow();
      return row.tail_offset === null ? row : undefined;
    });
    const hours = await ctx.db.selectFrom("watch_log_hours").selectAll().execute();
    expect(state.stored_logs).toBe(1620);
    expect(hours.reduce((sum, h) => sum + h.success + h.failed, 0)).toBe(1620);
    expect(state.history_complete).toBe(1);
  });

  it("dates what it stored by when the poll began reading, not when it ended", async () => {
    const ctx = await databases.fresh("sqlite");
    const webhook = hub.webhook();
    hub.deliver(webhook, 5);
    await watch(ctx, webhook);
    const serve = hub.upstream.handle;
    const reads: number[] = [];
    let slowed = false;
    hub.intercept = (req, res) => {
      reads.push(Date.now());
      if (slowed || !req.url?.includes("webhook-log")) return false;
      // A slow log page: a log written meanwhile is not in what this poll stores.
      slowed = true;
      setTimeout(() => void serve(req, res, {} as never), 500);
      return true;
    };
    start(ctx);
    const polledAt = await waitFor("the first poll to end", async () => {
      const row = await ctx.db
        .selectFrom("watch_state")
        .select("polled_at")
        .where("webhook_id", "=", webhook.id)
        .executeTakeFirst();
      return row?.polled_at ?? undefined;
    });
    expect(Number(polledAt)).toBeLessThanOrEqual(reads[0]!);
    expect(Number(polledAt)).toBeGreaterThan(reads[0]! - 1_000);
  });

  it("waits out a 429's Retry-After before calling the hub with that key again", async () => {
    const ctx = await databases.fresh("sqlite");
    const webhook = hub.webhook();
    hub.deliver(webhook, 10);
    await watch(ctx, webhook);
    let limitedAt = 0;
    const after: number[] = [];
    hub.intercept = (req, res) => {
      if (limitedAt) after.push(Date.now());
      if (limitedAt || !req.url?.includes("webhook-log")) return false;
      limitedAt = Date.now();
      sendJson(res, 429, { error: "slow down" }, { "retry-after": "2" });
      return true;
    };
    // One call in flight at a time: every call after the 429 was sent after it arrived.
    start(ctx, { concurrency: 1 });
    await storedEqual(ctx, webhook, () => hubIds(webhook));
    expect(limitedAt).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(after[0]! - limitedAt).toBeGreaterThanOrEqual(1900);
  });

  it("counts each hub call by outcome in the store, and keeps a budget per key it used", async () => {
    const ctx = await databases.fresh("sqlite");
    const webhook = hub.webhook();
    hub.deliver(webhook, 10);
    await watch(ctx, webhook);
    let limited = false;
    hub.intercept = (req, res) => {
      if (limited || !req.url?.includes("webhook-log")) return false;
      limited = true;
      sendJson(res, 429, { error: "slow down" }, { "retry-after": "1" });
      return true;
    };
    const watcher = start(ctx, { concurrency: 1 });
    await storedEqual(ctx, webhook, () => hubIds(webhook));
    expect(watcher.budgetsLeft().map((budget) => budget.appId)).toEqual([applicationId(hub.apiKey)]);
    await watcher.stop();
    const rows = await ctx.db
      .selectFrom("watch_hub_calls")
      .select(["outcome", (eb) => eb.fn.sum<number>("calls").as("calls")])
      .groupBy("outcome")
      .orderBy("outcome")
      .execute();
    // Every call the hub answered, but one the stop may have cut short (one call at a time).
    const answered = hub.upstream.requests.length - 1;
    const counted = new Map(rows.map((row) => [row.outcome, Number(row.calls)]));
    expect([...counted.keys()]).toEqual(["ok", "rate_limited"]);
    expect(counted.get("rate_limited")).toBe(1);
    expect(counted.get("ok")).toBeGreaterThanOrEqual(answered - 1);
    expect(counted.get("ok")).toBeLessThanOrEqual(answered);
  });

  it("keeps polling the other webhooks when the hub answers garbage for one", async () => {
    const ctx = await databases.fresh("sqlite");
    const broken = hub.webhook();
    const fine = hub.webhook();
    hub.deliver(broken, 5);
    hub.deliver(fine, 5);
    await watch(ctx, broken, fine);
    hub.intercept = (req, res) => {
      if (!req.url?.startsWith(`${webhookPath(broken)}/webhook-log`)) return false;
      res.writeHead(200, { "content-type": "application/json" }).end("<html>not json</html>");
      return true;
    };
    start(ctx);
    await storedEqual(ctx, fine, () => hubIds(fine));
    const rows = await waitFor("the broken webhook's poll error", async () => {
      const overview = await overviewRows(ctx, [applicationId(hub.apiKey)]);
      return overview.find((r) => r.webhookId === broken.id)?.pollError ? overview : undefined;
    });
    expect(rows.find((r) => r.webhookId === broken.id)).toMatchObject({
      pollError: { code: "upstream_invalid" },
    });
    expect(await storedIds(ctx, broken.id)).toEqual([]);
    expect(await watcherHealth(ctx, [applicationId(hub.apiKey)])).toMatchObject({
      pollsFailing: 1,
    });
  });

  it("marks a key the hub rejects, stops using it, and resumes with the key handed over", async () => {
    const ctx = await databases.fresh("sqlite");
    const webhook = hub.webhook();
    hub.deliver(webhook, 5);
    await watch(ctx, webhook);
    const oldKey = hub.apiKey;
    start(ctx);
    await storedEqual(ctx, webhook, () => hubIds(webhook));
    hub.apiKey = `rotated-${oldKey}`;
    await waitFor("the key marked rejected", async () =>
      (await keyStates(ctx, [applicationId(oldKey)]))[0]?.rejected ? true : undefined,
    );
    const rejectedCalls = hub.upstream.requests.length;
    hub.deliver(webhook, 3);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(hub.upstream.requests.length).toBe(rejectedCalls);

    const { appId } = await replaceKey(ctx, applicationId(oldKey), hub.apiKey);
    expect(appId).toBe(applicationId(hub.apiKey));
    await storedEqual(ctx, webhook, () => hubIds(webhook));
    expect(await listWatches(ctx, [appId])).toHaveLength(1);
  });
});

describe("several watchers on one PostgreSQL", () => {
  it("share the webhooks (each polled by one), and one takes over when the other dies", async () => {
    // Two instances: each its own pool on one database.
    const url = await databases.freshPostgresUrl();
    const options = { secrets: [TEST_SECRET], bodyCapBytes: 4096 };
    const ctx = await openStoreContext({ target: { kind: "postgres", url }, ...options });
    const other = await openStoreContext({ target: { kind: "postgres", url }, ...options });
    onTestFinished(async () => {
      await Promise.all(watchers.splice(0).map((w) => w.stop()));
      await Promise.all([ctx.db.destroy(), other.db.destroy()]);
    });
    const webhooks = Array.from({ length: 6 }, () => hub.webhook());
    for (const webhook of webhooks) hub.deliver(webhook, 120);
    await watch(ctx, ...webhooks);
    const one = start(ctx, {}, "one");
    start(other, {}, "two");
    for (const webhook of webhooks) await storedEqual(ctx, webhook, () => hubIds(webhook));

    // In steady state two watchers poll each webhook no more often than one would.
    const before = webhooks.map((w) => calls(webhookPath(w)));
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const seconds = (Date.now() - started) / 1000;
    webhooks.forEach((w, i) => {
      expect(calls(webhookPath(w)) - before[i]!).toBeLessThanOrEqual(
        Math.ceil(seconds / SETTINGS.intervalSeconds) + 1,
      );
    });

    await one.stop();
    for (const webhook of webhooks) hub.deliver(webhook, 75);
    for (const webhook of webhooks)
      await storedEqual(ctx, webhook, () => hubIds(webhook), 2 * SETTINGS.leaseSeconds * 1000 + 15_000);
    const owners = await ctx.db.selectFrom("watch_state").select("lease_owner").execute();
    expect(owners.every((o) => o.lease_owner !== "one")).toBe(true);
  });
});
