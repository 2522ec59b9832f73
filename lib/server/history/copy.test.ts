/**
 * The copies questions make, on SQLite and on a real PostgreSQL, against an in-memory hub: a copy
 * expires unused, all of them stay within their bound, a hub failure midway leaves what was
 * copied and says so, watching a copied webhook keeps its copy for the watcher to go on from, and a
 * question takes a webhook from the watcher rather than wait for its paced backfill.
 */
import { addWatches } from "@/lib/server/watch/watches";
import { listIssues } from "@/lib/server/watch/failure-issues";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseWebhookId, type WebhookId } from "@/lib/server/hub/path-params";
import { applicationId } from "@/lib/server/session/key-hash";
import { copyFor, expireCopies } from "@/lib/server/history/copy";
import { claimDue, LeaseLost } from "@/lib/server/watch/cursor";
import { closeSharedStore, sharedStoreContext } from "@/lib/server/store/context";
import { pollWebhook } from "@/lib/server/watch/poll";
import { hubReader } from "@/lib/server/history/reader";
import { KeyBudgets } from "@/lib/server/history/key-budget";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { sendJson } from "@/tests/support/fake-upstream";
import { startMemoryHub, type MemoryHub } from "@/tests/support/memory-hub";
import { WATCH_DATABASES, watchDatabases } from "@/tests/support/watch-databases";
import pLimit from "p-limit";

const databases = watchDatabases();
let hub: MemoryHub;

beforeAll(async () => {
  hub = await startMemoryHub();
});
afterAll(() => hub.close());

describe.each(WATCH_DATABASES)("copies of unwatched webhooks on %s", (kind) => {
  beforeEach(async () => {
    const target: Record<string, string> =
      kind === "sqlite" ? { WATCH_DB: ":memory:" } : { DATABASE_URL: await databases.freshPostgresUrl() };
    stubEnv({
      HUB_BASE_URL: hub.url,
      HUB_SANDBOX: "",
      SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
      HISTORY_COPY_MINUTES: "60",
      HISTORY_COPY_MAX_LOGS: "250",
      ...target,
    });
    await closeSharedStore();
    hub.intercept = null;
  });
  afterEach(async () => {
    await closeSharedStore();
    restoreEnv();
  });

  const call = () => ({
    apiKey: hub.apiKey,
    appId: applicationId(hub.apiKey),
    signal: new AbortController().signal,
  });
  const calls = () => hub.upstream.requests.filter((r) => r.url.includes("/webhook-log")).length;
  function webhookWith(count: number, failed?: (i: number) => boolean) {
    const webhook = hub.webhook();
    hub.deliver(webhook, count, failed);
    return { webhook, id: parseWebhookId(webhook.id)! };
  }
  const stored = async (webhookId: string) =>
    (await sharedStoreContext()).db
      .selectFrom("watch_logs")
      .select("id")
      .where("webhook_id", "=", webhookId)
      .execute()
      .then((rows) => rows.length);

  it("expires a copy unused for HISTORY_COPY_MINUTES, and keeps the rest within HISTORY_COPY_MAX_LOGS, least recently used first", async () => {
    const [old, middle, recent] = [webhookWith(100), webhookWith(100), webhookWith(100)];
    for (const one of [old, middle, recent]) await copyFor(call(), one.id, { since: null, cap: 1000 });
    const ctx = await sharedStoreContext();
    const now = Date.now();
    await ctx.db
      .updateTable("log_copies")
      .set({ used_at: now - 61 * 60_000 })
      .where("webhook_id", "=", old.id)
      .execute();
    await ctx.db
      .updateTable("log_copies")
      .set({ used_at: now - 30 * 60_000 })
      .where("webhook_id", "=", middle.id)
      .execute();
    // The old one has expired; the two others hold 200 logs, within the bound of 250.
    expect(await expireCopies(ctx, now)).toBe(1);
    expect([await stored(old.id), await stored(middle.id), await stored(recent.id)]).toEqual([0, 100, 100]);
    // A third copy passes the bound: the least recently used goes.
    const newest = webhookWith(100);
    await copyFor(call(), newest.id, { since: null, cap: 1000 });
    expect(await expireCopies(ctx, Date.now())).toBe(1);
    expect([await stored(middle.id), await stored(recent.id), await stored(newest.id)]).toEqual([
      0, 100, 100,
    ]);
    expect(
      await ctx.db
        .selectFrom("watch_state")
        .select("webhook_id")
        .where("webhook_id", "=", middle.id)
        .execute(),
    ).toEqual([]);
  });

  it("keeps what it copied when the hub fails midway, says so, and the next question goes on from there", async () => {
    const { id } = webhookWith(400);
    let served = 0;
    hub.intercept = (req, res) => {
      const offset = Number(new URL(req.url ?? "", "http://hub").searchParams.get("offset") ?? 0);
      if (!req.url?.includes("/webhook-log") || offset < 200) return false;
      served++;
      sendJson(res, 401, {});
      return true;
    };
    const partial = await copyFor(call(), id, { since: null, cap: 1000 });
    expect(served).toBeGreaterThan(0);
    expect(partial.partial).toMatchObject({ reason: "failed", code: "unauthorized" });
    const copied = await stored(id);
    expect(copied).toBeGreaterThanOrEqual(200);
    hub.intercept = null;
    hub.upstream.requests.length = 0;
    const whole = await copyFor(call(), id, { since: null, cap: 1000 }, { refresh: true });
    expect(whole).toMatchObject({ complete: true, partial: null });
    expect(await stored(id)).toBe(400);
    // Only the newest page and the pages below what was copied.
    expect(calls()).toBeLessThanOrEqual(1 + Math.ceil((400 - copied) / 50) + 1 + 4);
  });

  it("a question takes the webhook from the watcher's backfill rather than wait for it; another question's it waits for", async () => {
    const { webhook, id } = webhookWith(300);
    const ctx = await sharedStoreContext();
    await addWatches(ctx, applicationId(hub.apiKey), hub.apiKey, [{ webhook: { ...webhook } }]);
    const [claimed] = await claimDue(ctx, "watcher-1", 1, 60_000);
    expect(claimed?.state.webhook_id).toBe(id);

    // The watcher holds the lease for a minute: the question reads at once, and the whole history.
    const copy = await copyFor(call(), id, { since: null, cap: 1000 });
    expect(copy).toMatchObject({ complete: true, partial: null });
    expect(await stored(id)).toBe(300);
    // The watcher's poll ends at its first write, which finds the lease gone.
    const reader = hubReader(
      { appId: applicationId(hub.apiKey), apiKey: hub.apiKey },
      id as WebhookId,
      new KeyBudgets(100_000),
      pLimit(4),
    );
    hub.deliver(webhook, 1);
    const settings = {
      ctx,
      owner: "watcher-1",
      leaseMs: 60_000,
      backfillCount: 10_000,
      backfillAgeMs: 86_400_000,
      parallelPages: 4,
    };
    await expect(
      pollWebhook(settings, claimed!, reader, new AbortController().signal),
    ).rejects.toBeInstanceOf(LeaseLost);

    // Another question's lease is waited for, until the asker gives up.
    await ctx.db
      .updateTable("watch_state")
      .set({ lease_owner: "question:other", lease_until: Date.now() + 60_000 })
      .where("webhook_id", "=", id)
      .execute();
    const asker = new AbortController();
    setTimeout(() => asker.abort(), 600);
    await expect(
      copyFor({ ...call(), signal: asker.signal }, id, { since: null, cap: 1000 }, { refresh: true }),
    ).rejects.toThrow();
    expect(await stored(id)).toBe(300);
  });

  it("watching a copied webhook keeps its copy: issues from it, and the watcher reads only what lies below", async () => {
    const { webhook, id } = webhookWith(300, (i) => i % 3 === 0);
    await copyFor(call(), id, { since: null, cap: 120 });
    const held = await stored(id);
    expect(held).toBeLessThan(300);
    const ctx = await sharedStoreContext();
    const appId = applicationId(hub.apiKey);
    await addWatches(ctx, appId, hub.apiKey, [{ webhook: { ...webhook } }]);
    expect(await ctx.db.selectFrom("log_copies").selectAll().execute()).toEqual([]);
    const issues = await listIssues(ctx, [appId], { webhookId: id });
    expect(issues.map((issue) => issue.failures).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);

    hub.upstream.requests.length = 0;
    const [claimed] = await claimDue(ctx, "test", 1, 60_000);
    const reader = hubReader(
      { appId, apiKey: hub.apiKey },
      id as WebhookId,
      new KeyBudgets(100_000),
      pLimit(4),
    );
    const settings = {
      ctx,
      owner: "test",
      leaseMs: 60_000,
      backfillCount: 10_000,
      backfillAgeMs: 30 * 86_400_000,
      parallelPages: 4,
    };
    for (let poll = 0; poll < 5; poll++) {
      const result = await pollWebhook(settings, claimed!, reader, new AbortController().signal);
      if (!result.backfilling) break;
      Object.assign(
        claimed!.state,
        await ctx.db
          .selectFrom("watch_state")
          .selectAll()
          .where("webhook_id", "=", id)
          .executeTakeFirstOrThrow(),
      );
    }
    expect(await stored(id)).toBe(300);
    const offsets = hub.upstream.requests
      .filter((r) => r.url.includes("/webhook-log"))
      .map((r) => Number(new URL(r.url, "http://hub").searchParams.get("offset")));
    // The newest page, then the pages from what was copied on: none of the copied pages again.
    expect(offsets.filter((offset) => offset > 0 && offset < held - 50)).toEqual([]);
  });
});
