import { createHash } from "node:crypto";
import { closeSharedStore, withStore } from "@/lib/server/store/context";
import { overviewRows, watcherHealth } from "@/lib/server/watch/overview-rows";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EMPTY_QUESTION } from "@/lib/domain/history/question";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { applicationId } from "@/lib/server/session/key-hash";
import type { StoreContext } from "@/lib/server/store/context";
import { claimDue, finishPoll, prune, recordWebhook, writeLogs } from "@/lib/server/watch/cursor";

import * as questions from "@/lib/server/history/questions";
import { createSealer } from "@/lib/server/store/seal";
import {
  addWatches,
  getWatch,
  keyStates,
  listWatches,
  markKeyRejected,
  openKey,
  refreshKeys,
  rejectedApplications,
  removeWatch,
  renameWatch,
  replaceKey,
} from "@/lib/server/watch/watches";
import { DEFAULT_RULES } from "@/lib/domain/alerts/rules";
import { addDestination, listDestinations } from "@/lib/server/alerts/destinations";
import {
  appRules,
  saveAppRules,
  saveWebhookOverride,
  webhookOverride,
} from "@/lib/server/alerts/rules-store";
import { appErrorOf } from "@/tests/support/app-error-of";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { TEST_SECRET, WATCH_DATABASES, watchDatabases } from "@/tests/support/watch-databases";

const databases = watchDatabases();

const KEY = "key-of-application-a-0123456789";
const OTHER_KEY = "key-of-application-b-0123456789";
const HOUR = 3_600_000;
/** Half past an hour, after every watch's first planned poll (added at the real time). */
const NOW = Math.ceil(Date.now() / HOUR) * HOUR + 30 * 60_000;

let n = 0;
/** A webhook id / log id of the UUID shape the schemas accept. */
function uuid(): string {
  n++;
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
}

function webhook(id = uuid(), errors = 0, active = true) {
  return { id, endpoint: `https://example.test/${id}`, eventType: "Message", numberOfErrors: errors, active };
}

function log(
  webhookId: string,
  at: number,
  status: "Success" | "Failed",
  statusCode = status === "Success" ? 200 : 500,
  body = "ok",
): WebhookLog {
  return {
    id: uuid(),
    webhookId,
    statusCode,
    responseBody: body,
    status,
    sendAt: new Date(at).toISOString(),
    createdDate: new Date(at + 10).toISOString(),
    messageId: uuid(),
    webhook: { id: webhookId, endpoint: "https://example.test", eventType: "Message" },
  };
}

beforeEach(() => stubEnv({ SESSION_SECRET: "a-session-secret-for-tests-32-chars!" }));
afterEach(() => restoreEnv());

describe.each(WATCH_DATABASES)("the watch store on %s", (kind) => {
  let ctx: StoreContext;
  let appA: string;
  let appB: string;

  beforeEach(async () => {
    ctx = await databases.fresh(kind);
    appA = applicationId(KEY);
    appB = applicationId(OTHER_KEY);
  });

  /** A webhook's whole copy, as a question's scope. */
  const copyOf = (webhookId: string) => ({ webhookId, from: null, complete: false });
  const state = (webhookId: string) =>
    ctx.db
      .selectFrom("watch_state")
      .selectAll()
      .where("webhook_id", "=", webhookId)
      .executeTakeFirstOrThrow();

  /** Writes logs for a webhook as the watcher does: claimed, written with the cursor, released. */
  async function stored(webhookId: string, logs: WebhookLog[], now = NOW) {
    const claimed = await claimDue(ctx, "test", 100, 60_000, now);
    expect(claimed.map((c) => c.state.webhook_id)).toContain(webhookId);
    const fresh = await writeLogs(
      ctx,
      "test",
      webhookId,
      logs,
      { head_id: logs[0]?.id ?? null, tail_offset: null },
      60_000,
      now,
    );
    for (const c of claimed)
      await finishPoll(ctx, "test", c.state.webhook_id, { nextPollAt: now, error: null }, now);
    return fresh;
  }

  it("keeps watches per application, sealed key and all, and shows them only to that application", async () => {
    const hook = webhook();
    const [added] = await addWatches(ctx, appA, KEY, [{ webhook: hook, name: "  Acme  " }]);
    expect(added).toMatchObject({ webhookId: hook.id, appId: appA, name: "Acme", endpoint: hook.endpoint });
    expect(await listWatches(ctx, [appA])).toHaveLength(1);
    expect(await listWatches(ctx, [appB])).toEqual([]);
    expect(await getWatch(ctx, [appB], hook.id)).toBeNull();
    // The key is stored once, sealed: the raw row does not hold it, and the store opens it.
    const raw = await ctx.db.selectFrom("watch_keys").selectAll().execute();
    expect(raw).toHaveLength(1);
    expect(JSON.stringify(raw)).not.toContain(KEY);
    expect(await openKey(ctx, appA)).toBe(KEY);
    // A bad name changes nothing, and names the field.
    const refused = await appErrorOf(() => renameWatch(ctx, [appA], hook.id, "   "));
    expect(refused).toMatchObject({
      code: "bad_request",
      fields: { name: [expect.stringMatching(/Name must be/)] },
    });
    expect((await getWatch(ctx, [appA], hook.id))?.name).toBe("Acme");
    expect(await appErrorOf(() => renameWatch(ctx, [appB], hook.id, "Mine"))).toMatchObject({
      code: "not_found",
    });
    expect((await renameWatch(ctx, [appA], hook.id, "Acme Corp")).name).toBe("Acme Corp");
    // Stopping the last watch removes the key with it.
    await expect(removeWatch(ctx, [appB], hook.id)).rejects.toMatchObject({ code: "not_found" });
    await removeWatch(ctx, [appA], hook.id);
    expect(await listWatches(ctx, [appA])).toEqual([]);
    expect(await ctx.db.selectFrom("watch_keys").selectAll().execute()).toEqual([]);
  });

  it("stores each log once, its body capped with its full size and hash, and answers questions newest first", async () => {
    const hook = webhook();
    await addWatches(ctx, appA, KEY, [{ webhook: hook }]);
    const long = "é".repeat(100) + " the TIMEOUT_50% here";
    const logs = [
      log(hook.id, NOW - 1_000, "Failed", 500, long),
      log(hook.id, NOW - 2_000, "Failed", 404, "not found"),
      log(hook.id, NOW - 3_000, "Success", 200, "ok"),
      log(hook.id, NOW - 4_000, "Failed", 0, ""),
    ];
    expect(await stored(hook.id, logs)).toHaveLength(4);
    expect(await stored(hook.id, logs.slice(0, 2))).toEqual([]);

    const all = await questions.queryLogs(ctx.db, copyOf(hook.id), EMPTY_QUESTION, { offset: 0, limit: 10 });
    expect(all.total).toBe(4);
    expect(all.rows.map((r) => r.id)).toEqual(logs.map((l) => l.id));
    const first = all.rows[0]!;
    expect(first.responseBodySize).toBe(Buffer.byteLength(long));
    expect(first.responseBodySha256).toBe(createHash("sha256").update(long).digest("hex"));
    expect(first.responseBodyTruncated).toBe(true);
    expect(Buffer.byteLength(first.responseBody)).toBeLessThanOrEqual(64);
    expect(long.startsWith(first.responseBody)).toBe(true);
    expect(first.webhook).toEqual({ id: hook.id, endpoint: hook.endpoint, eventType: "Message" });

    const failed4xx = await questions.queryLogs(
      ctx.db,
      copyOf(hook.id),
      { ...EMPTY_QUESTION, status: "Failed", code: { kind: "class", hundreds: 4 } },
      { offset: 0, limit: 10 },
    );
    expect(failed4xx.rows.map((r) => r.statusCode)).toEqual([404]);
    const since = await questions.queryLogs(
      ctx.db,
      copyOf(hook.id),
      { ...EMPTY_QUESTION, since: NOW - 2_500, contains: "found" },
      { offset: 0, limit: 10 },
    );
    expect(since.rows.map((r) => r.id)).toEqual([logs[1]!.id]);
    // `%` and `_` are text, not wildcards.
    expect(
      (
        await questions.queryLogs(
          ctx.db,
          copyOf(hook.id),
          { ...EMPTY_QUESTION, contains: "_%" },
          { offset: 0, limit: 10 },
        )
      ).total,
    ).toBe(0);
    const paged = await questions.queryLogs(ctx.db, copyOf(hook.id), EMPTY_QUESTION, { offset: 1, limit: 2 });
    expect(paged.rows.map((r) => r.id)).toEqual([logs[1]!.id, logs[2]!.id]);

    const streamed: string[] = [];
    for await (const batch of questions.streamLogs(ctx.db, copyOf(hook.id), {
      ...EMPTY_QUESTION,
      status: "Failed",
    }))
      streamed.push(...batch.map((r) => r.id));
    expect(streamed).toEqual([logs[0]!.id, logs[1]!.id, logs[3]!.id]);

    const byMessage = await questions.findLog(ctx.db, copyOf(hook.id), {
      kind: "id",
      id: logs[3]!.messageId!,
    });
    expect(byMessage).toMatchObject({ log: { id: logs[3]!.id }, index: 3 });
    expect(
      await questions.findLog(
        ctx.db,
        copyOf(hook.id),
        { kind: "log", id: logs[3]!.id, webhookId: hook.id },
        "Failed",
      ),
    ).toMatchObject({ index: 2 });
    expect(await questions.findLog(ctx.db, copyOf(hook.id), { kind: "id", id: uuid() })).toBeNull();

    const health = await questions.health(
      ctx.db,
      copyOf(hook.id),
      { ...EMPTY_QUESTION, since: NOW - HOUR },
      NOW,
    );
    expect(health).toMatchObject({
      attempts: 4,
      success: 1,
      failed: 3,
      successRate: 25,
      lastSuccess: { logId: logs[2]!.id },
      lastFailure: { logId: logs[0]!.id, statusCode: 500 },
      failingStreak: { since: logs[1]!.sendAt, length: 2, atLeast: false },
    });
    expect(health.buckets.reduce((s, b) => s + b.success + b.failed, 0)).toBe(4);
    expect(health.failuresByCode).toEqual([
      { statusCode: 0, count: 1 },
      { statusCode: 404, count: 1 },
      { statusCode: 500, count: 1 },
    ]);
    expect(await state(hook.id)).toMatchObject({ stored_logs: 4, tail_offset: null });
  });

  it("ranks the overview worst first, with the true start of a streak, hourly counts and the change in errors", async () => {
    const failing = webhook(uuid(), 5);
    const healthy = webhook(uuid(), 1);
    const inactive = webhook(uuid(), 0, false);
    await addWatches(ctx, appA, KEY, [
      { webhook: healthy, name: "Healthy" },
      { webhook: failing, name: "Failing" },
      { webhook: inactive, name: "Inactive" },
    ]);
    // The failing streak began two days ago: older than the 24 h the sparkline shows.
    await stored(failing.id, [
      log(failing.id, NOW - 60_000, "Failed", 503),
      log(failing.id, NOW - 2 * HOUR, "Failed", 500),
      log(failing.id, NOW - 48 * HOUR, "Failed", 500),
      log(failing.id, NOW - 49 * HOUR, "Success"),
    ]);
    await stored(healthy.id, [
      log(healthy.id, NOW - 60_000, "Success"),
      log(healthy.id, NOW - 3 * HOUR, "Failed"),
    ]);
    for (const hook of [failing, healthy, inactive]) {
      await claimDue(ctx, "test", 10, 60_000, NOW);
      await recordWebhook(
        ctx,
        "test",
        { ...hook, numberOfErrors: hook.numberOfErrors - 1 },
        60_000,
        NOW - 30 * HOUR,
      );
      await finishPoll(ctx, "test", hook.id, { nextPollAt: NOW, error: null }, NOW - 30 * HOUR);
    }
    await claimDue(ctx, "test", 10, 60_000, NOW);
    await recordWebhook(ctx, "test", failing, 60_000, NOW - HOUR);
    await finishPoll(ctx, "test", failing.id, { nextPollAt: NOW, error: null }, NOW);

    const rows = await overviewRows(ctx, [appA], NOW);
    expect(rows.map((r) => r.name)).toEqual(["Failing", "Healthy", "Inactive"]);
    const [top, mid, last] = rows;
    expect(top).toMatchObject({
      active: true,
      numberOfErrors: 5,
      errorsChange: 1,
      attempts24h: 2,
      failed24h: 2,
      successRate24h: 0,
      failingStreak: { since: new Date(NOW - 48 * HOUR).toISOString(), length: 3, atLeast: false },
      lastFailure: { statusCode: 503 },
      lastSuccess: { at: new Date(NOW - 49 * HOUR).toISOString() },
      keyRejected: false,
    });
    expect(top!.hours.failed).toHaveLength(24);
    expect(top!.hours.failed.at(-1)).toBe(1);
    expect(top!.hours.from).toBe(new Date(Math.floor(NOW / HOUR) * HOUR - 23 * HOUR).toISOString());
    expect(mid).toMatchObject({ successRate24h: 50, failingStreak: null, errorsChange: 0 });
    expect(last).toMatchObject({ active: false, attempts24h: 0, successRate24h: null });
    expect(await overviewRows(ctx, [appB], NOW)).toEqual([]);

    const timeline = await questions.timeline(ctx.db, failing.id);
    expect(timeline.map((e) => [e.kind, e.numberOfErrors, e.previous])).toEqual([
      ["errors", 5, 4],
      ["active", 4, null],
      ["errors", 4, null],
    ]);
    // A range keeps the events seen within it: the first poll's are 30 h old.
    const lastDay = await questions.timeline(ctx.db, failing.id, { from: NOW - 24 * HOUR, to: NOW });
    expect(lastDay.map((e) => [e.kind, e.numberOfErrors, e.previous])).toEqual([["errors", 5, 4]]);
    expect(await questions.timeline(ctx.db, failing.id, { to: NOW - 2 * HOUR, limit: 1 })).toHaveLength(1);
  });

  it("hands a new key over without losing watches, names or history, and skips a rejected key's webhooks", async () => {
    const hook = webhook();
    await addWatches(ctx, appA, KEY, [{ webhook: hook, name: "Acme" }]);
    await stored(hook.id, [log(hook.id, NOW - 1000, "Success")]);
    await markKeyRejected(ctx, appA, "the hub answered 401");
    expect(await keyStates(ctx, [appA])).toMatchObject([{ appId: appA, rejected: true }]);
    expect((await overviewRows(ctx, [appA], NOW))[0]).toMatchObject({ keyRejected: true });
    expect(await watcherHealth(ctx, [appA], NOW)).toMatchObject({ keysRejected: [appA], watched: 1 });
    expect(await claimDue(ctx, "test", 10, 60_000, NOW + 1)).toEqual([]);

    const { appId } = await replaceKey(ctx, appA, OTHER_KEY);
    expect(appId).toBe(appB);
    expect(await listWatches(ctx, [appA])).toEqual([]);
    expect(await listWatches(ctx, [appB])).toMatchObject([{ webhookId: hook.id, name: "Acme" }]);
    expect(
      (await questions.queryLogs(ctx.db, copyOf(hook.id), EMPTY_QUESTION, { offset: 0, limit: 5 })).total,
    ).toBe(1);
    expect(await openKey(ctx, appB)).toBe(OTHER_KEY);
    expect(await keyStates(ctx, [appA, appB])).toEqual([{ appId: appB, rejected: false, rejectedAt: null }]);
    expect(await claimDue(ctx, "test", 10, 60_000, NOW + 1)).toHaveLength(1);
  });

  it("carries the alert rules, snoozes and quiet hours with the watches, and drops the destinations it is told to", async () => {
    const [quiet, tuned] = [webhook(), webhook()];
    await addWatches(ctx, appA, KEY, [
      { webhook: quiet, name: "Quiet Co" },
      { webhook: tuned, name: "Tuned Co" },
    ]);
    const kept = await addDestination(ctx, appA, { kind: "email", label: "Team", to: "team@example.com" });
    const planted = await addDestination(ctx, appA, {
      kind: "email",
      label: "Planted",
      to: "x@evil.example",
    });
    const rules = { ...DEFAULT_RULES, cooldownMinutes: 45 };
    await saveAppRules(ctx, appA, rules);
    const snoozedUntil = new Date(NOW + HOUR).toISOString();
    const quietHours = { start: "22:00", end: "07:00", zone: "Europe/Berlin" };
    await saveWebhookOverride(ctx, appA, quiet.id, { rules: {}, snoozedUntil, quietHours });
    const tunedOverride = {
      rules: { streak: { enabled: true, min: 9 } },
      snoozedUntil: null,
      quietHours: null,
    };
    await saveWebhookOverride(ctx, appA, tuned.id, tunedOverride);
    // The new key's application already chose its own cooldown: that stays.
    const own = { ...DEFAULT_RULES, cooldownMinutes: 5 };
    await saveAppRules(ctx, appB, own);

    await replaceKey(ctx, appA, OTHER_KEY, [planted.destination.id]);
    expect(await appRules(ctx, appB)).toEqual(own);
    expect(await webhookOverride(ctx, appB, quiet.id)).toEqual({ rules: {}, snoozedUntil, quietHours });
    expect(await webhookOverride(ctx, appB, tuned.id)).toEqual(tunedOverride);
    expect((await listDestinations(ctx, appB)).map((d) => d.label)).toEqual(["Team"]);
    expect(await listDestinations(ctx, appA)).toEqual([]);
    expect(
      await ctx.db.selectFrom("alert_rules").select("app_id").where("app_id", "=", appA).execute(),
    ).toEqual([]);
    expect(kept.destination.id).toBe((await listDestinations(ctx, appB))[0]!.id);
  });

  it("moves an application's rules, snoozes and quiet hours when a SESSION_SECRET change moves its id", async () => {
    const hook = webhook();
    const staleId = "0123456789abcdef";
    await addWatches(ctx, staleId, KEY, [{ webhook: hook, name: "Acme" }]);
    const quietHours = { start: "22:00", end: "07:00", zone: "UTC" };
    await saveWebhookOverride(ctx, staleId, hook.id, { rules: {}, snoozedUntil: null, quietHours });
    await refreshKeys(ctx);
    expect(await listWatches(ctx, [appA])).toMatchObject([{ webhookId: hook.id }]);
    expect((await webhookOverride(ctx, appA, hook.id)).quietHours).toEqual(quietHours);
  });

  it("shares the polling by lease: a claimed webhook is not claimed again until its lease runs out", async () => {
    const hooks = [webhook(), webhook(), webhook(), webhook()];
    await addWatches(
      ctx,
      appA,
      KEY,
      hooks.map((h) => ({ webhook: h })),
    );
    const [one, two] = await Promise.all([
      claimDue(ctx, "one", 3, 10_000, NOW),
      claimDue(ctx, "two", 3, 10_000, NOW),
    ]);
    const ids = [...one, ...two].map((c) => c.state.webhook_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(hooks.map((h) => h.id).sort());
    expect(await claimDue(ctx, "three", 10, 10_000, NOW + 5_000)).toEqual([]);
    // A write under a lease that passed to another instance is refused and changes nothing.
    const lost = one[0]!.state.webhook_id;
    const taken = await claimDue(ctx, "three", 10, 10_000, NOW + 10_001);
    expect(taken.map((c) => c.state.webhook_id)).toContain(lost);
    await expect(
      writeLogs(ctx, "one", lost, [log(lost, NOW, "Success")], {}, 10_000, NOW + 10_002),
    ).rejects.toThrow(/lease/);
    expect((await state(lost)).stored_logs).toBe(0);
  });

  it("deletes what is older than the retention, and says the store is complete only from the cut", async () => {
    const hook = webhook();
    await addWatches(ctx, appA, KEY, [{ webhook: hook }]);
    await stored(hook.id, [
      log(hook.id, NOW - HOUR, "Success"),
      log(hook.id, NOW - 40 * 86_400_000, "Failed"),
    ]);
    expect(await prune(ctx, 30, NOW)).toBe(1);
    expect(
      (await questions.queryLogs(ctx.db, copyOf(hook.id), EMPTY_QUESTION, { offset: 0, limit: 5 })).total,
    ).toBe(1);
    expect(await state(hook.id)).toMatchObject({ stored_logs: 1, complete_from: NOW - 30 * 86_400_000 });
  });

  it("opens keys sealed under a previous secret, seals them again under the newest, and marks unreadable ones rejected", async () => {
    const hook = webhook();
    await addWatches(ctx, appA, KEY, [{ webhook: hook }]);
    const newest = "the-newest-watch-secret-32-chars!!!!";
    const rotated = { ...ctx, sealer: createSealer([newest, TEST_SECRET]) };
    await refreshKeys(rotated);
    const [row] = await ctx.db.selectFrom("watch_keys").selectAll().execute();
    expect(createSealer([newest]).open(row!.sealed)?.plain).toBe(KEY);
    expect(createSealer([TEST_SECRET]).open(row!.sealed)).toBeNull();
    // A console with neither secret cannot open it: the application needs a new key.
    await refreshKeys({ ...ctx, sealer: createSealer(["an-unrelated-secret-of-32-characters"]) });
    expect(await keyStates(ctx, [appA])).toMatchObject([{ rejected: true }]);
  });

  it("lists the applications whose key no longer serves: rejected by the hub, or sealed under a secret no longer configured", async () => {
    await addWatches(ctx, appA, KEY, [{ webhook: webhook() }]);
    expect(await rejectedApplications(ctx)).toEqual([]);
    // Another console, whose secret does not open the key (SESSION_SECRET changed), before its watcher marked it.
    const elsewhere = { ...ctx, sealer: createSealer(["an-unrelated-secret-of-32-characters"]) };
    expect(await rejectedApplications(elsewhere)).toEqual([appA]);
    await markKeyRejected(ctx, appA, "401 from the hub");
    expect(await rejectedApplications(ctx)).toEqual([appA]);
    await addWatches(ctx, appA, KEY, [{ webhook: webhook() }]);
    expect(await rejectedApplications(ctx)).toEqual([]);
  });
});

describe("the store when PostgreSQL goes away", () => {
  it("answers store_unavailable, then works again when the database returns", async () => {
    const server = await databases.ownPostgres();
    stubEnv({
      SESSION_SECRET: "a-session-secret-for-tests-32-chars!",
      DATABASE_URL: await server.createDatabase("outage"),
    });
    await closeSharedStore();
    const listed = () => withStore((ctx) => listWatches(ctx, [applicationId(KEY)]));
    await withStore((ctx) => addWatches(ctx, applicationId(KEY), KEY, [{ webhook: webhook() }]));
    await server.stop("kill");
    try {
      await expect(listed()).rejects.toMatchObject({ code: "store_unavailable" });
    } finally {
      await server.start();
    }
    expect(await listed()).toHaveLength(1);
    await closeSharedStore();
  });
});
