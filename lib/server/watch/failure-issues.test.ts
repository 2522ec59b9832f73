import { Migrator } from "kysely";
import { fillDerived } from "@/lib/server/watch/derived";
import { addWatches, removeWatch } from "@/lib/server/watch/watches";
import { changeIssue, listIssues } from "@/lib/server/watch/failure-issues";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { FailureIssue } from "@/lib/domain/watch/failure-issue";
import { applicationId } from "@/lib/server/session/key-hash";
import type { StoreContext } from "@/lib/server/store/context";
import { claimDue, finishPoll, prune, writeLogs } from "@/lib/server/watch/cursor";
import { migrations } from "@/lib/server/store/migrations";

import { appErrorOf } from "@/tests/support/app-error-of";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { webhookLog } from "@/tests/support/webhook-log";
import { WATCH_DATABASES, watchDatabases } from "@/tests/support/watch-databases";

const databases = watchDatabases();

const KEY = "key-of-application-a-0123456789";
const OTHER_KEY = "key-of-application-b-0123456789";
const MINUTE = 60_000;
const NOW = Date.now();

let n = 0;
function uuid(): string {
  n++;
  return `00000000-0000-4000-9000-${n.toString(16).padStart(12, "0")}`;
}

function webhook(id = uuid()) {
  return {
    id,
    endpoint: `https://example.test/${id}`,
    eventType: "Message",
    numberOfErrors: 0,
    active: true,
  };
}

/** A log sent `minutesAgo` minutes before NOW. */
function log(webhookId: string, minutesAgo: number, statusCode: number, body = ""): WebhookLog {
  return webhookLog(webhookId, NOW - minutesAgo * MINUTE, statusCode, body, {
    id: uuid(),
    messageId: uuid(),
  });
}

const dbLost = (id: string) => `{"message":"database connection lost","requestId":"req_${id}"}`;

beforeEach(() => stubEnv({ SESSION_SECRET: "a-session-secret-for-tests-32-chars!" }));
afterEach(() => restoreEnv());

describe.each(WATCH_DATABASES)("failure issues on %s", (kind) => {
  let ctx: StoreContext;
  let appA: string;
  let appB: string;

  beforeEach(async () => {
    ctx = await databases.fresh(kind, { bodyCapBytes: 4096 });
    appA = applicationId(KEY);
    appB = applicationId(OTHER_KEY);
  });

  /** Writes logs as the watcher does: claimed, written with the cursor, released (at the real time: a new watch is due from when it was added). */
  async function stored(webhookId: string, logs: WebhookLog[]) {
    const at = Date.now() + MINUTE;
    const claimed = await claimDue(ctx, "test", 100, MINUTE, at);
    try {
      return await writeLogs(
        ctx,
        "test",
        webhookId,
        logs,
        { head_id: logs[0]?.id ?? null, tail_offset: null },
        MINUTE,
        at,
      );
    } finally {
      for (const c of claimed)
        await finishPoll(ctx, "test", c.state.webhook_id, { nextPollAt: at, error: null }, at);
    }
  }

  async function watched(name = "Acme") {
    const hook = webhook();
    await addWatches(ctx, appA, KEY, [{ webhook: hook, name }]);
    return hook;
  }

  const byCode = (issues: FailureIssue[], code: number) => issues.filter((i) => i.statusCode === code);

  it("groups failures by status code and body signature, with first and last failure, count, samples and its state", async () => {
    const hook = await watched();
    const logs = [
      log(hook.id, 1, 500, dbLost("aaaa11112222")),
      log(hook.id, 2, 500, dbLost("bbbb33334444")),
      log(hook.id, 3, 500, "<html><body><h1>Internal Server Error</h1></body></html>"),
      log(hook.id, 4, 500, dbLost("cccc55556666")),
      log(hook.id, 5, 500, dbLost("dddd77778888")),
      log(
        hook.id,
        6,
        0,
        "[sandbox] No answer from the endpoint: connection refused by 127.0.0.1:1 (ECONNREFUSED)",
      ),
      log(hook.id, 7, 404, "Cannot POST /hooks"),
    ];
    expect(await stored(hook.id, logs)).toHaveLength(7);

    const issues = await listIssues(ctx, [appA]);
    expect(issues).toHaveLength(4);
    expect(issues.every((i) => i.state === "open" && i.webhookName === "Acme" && i.appId === appA)).toBe(
      true,
    );
    // Newest failure first.
    expect(issues.map((i) => i.lastFailure.logId)).toEqual([
      logs[0]!.id,
      logs[2]!.id,
      logs[5]!.id,
      logs[6]!.id,
    ]);
    const [lost, html] = byCode(issues, 500);
    expect(lost).toMatchObject({
      failures: 4,
      firstFailure: { logId: logs[4]!.id, at: logs[4]!.sendAt },
      lastFailure: { logId: logs[0]!.id, at: logs[0]!.sendAt },
      signatureText: '{"message":"database connection lost","requestId":"<id>"}',
      resolved: null,
      resolveAfter: 3,
    });
    // The three newest, newest first; each with the start of its body and its size.
    expect(lost!.samples.map((s) => s.logId)).toEqual([logs[0]!.id, logs[1]!.id, logs[3]!.id]);
    expect(lost!.samples[0]).toMatchObject({ at: logs[0]!.sendAt, bodySize: dbLost("aaaa11112222").length });
    expect(html).toMatchObject({ failures: 1, signatureText: "Internal Server Error" });
    expect(byCode(issues, 0)[0]).toMatchObject({ failures: 1 });

    // Stored again (a poll that read them twice): nothing changes.
    expect(await stored(hook.id, logs)).toEqual([]);
    expect(await listIssues(ctx, [appA])).toEqual(issues);
    // Older failures of a known cause count, and move its first failure back.
    const older = log(hook.id, 30, 500, dbLost("eeee99990000"));
    await stored(hook.id, [older]);
    const again = byCode(await listIssues(ctx, [appA]), 500)[0]!;
    expect(again).toMatchObject({
      failures: 5,
      firstFailure: { logId: older.id },
      lastFailure: { logId: logs[0]!.id },
    });
    expect(again.samples.map((s) => s.logId)).toEqual([logs[0]!.id, logs[1]!.id, logs[3]!.id]);
    // A newer failure of that cause becomes its newest sample, and the oldest sample goes.
    const newer = log(hook.id, 0, 500, dbLost("ffff00001111"));
    await stored(hook.id, [newer]);
    const latest = byCode(await listIssues(ctx, [appA]), 500)[0]!;
    expect(latest.samples.map((s) => s.logId)).toEqual([newer.id, logs[0]!.id, logs[1]!.id]);

    // Only sessions holding the application's key see them, per webhook when asked.
    expect(await listIssues(ctx, [appB])).toEqual([]);
    expect(await listIssues(ctx, [appA], { webhookId: uuid() })).toEqual([]);
    expect(await listIssues(ctx, [appA], { webhookId: hook.id })).toHaveLength(4);
  });

  it("resolves by itself after 3 successes in a row following its last failure, and a new failure reopens it", async () => {
    const hook = await watched();
    const first = log(hook.id, 20, 500, dbLost("aaaa11112222"));
    await stored(hook.id, [log(hook.id, 18, 200), log(hook.id, 19, 200), first]);
    expect((await listIssues(ctx, [appA]))[0]).toMatchObject({ state: "open", resolved: null });

    // Another cause's failure breaks the run: 2 + 2 successes are not 3 in a row.
    await stored(hook.id, [log(hook.id, 15, 200), log(hook.id, 16, 200), log(hook.id, 17, 404, "Not Found")]);
    expect(byCode(await listIssues(ctx, [appA]), 500)[0]!.state).toBe("open");
    const third = log(hook.id, 14, 200);
    await stored(hook.id, [third]);
    const issues = await listIssues(ctx, [appA]);
    // Both: the 404's run is 200, 200, 200 after it too.
    expect(byCode(issues, 500)[0]).toMatchObject({
      state: "resolved",
      resolved: { by: "auto", at: third.sendAt },
    });
    expect(byCode(issues, 404)[0]!.state).toBe("resolved");

    // A new failure of the same cause reopens it and counts.
    const relapse = log(hook.id, 10, 500, dbLost("ffff11112222"));
    await stored(hook.id, [relapse]);
    const reopened = byCode(await listIssues(ctx, [appA]), 500)[0]!;
    expect(reopened).toMatchObject({
      state: "open",
      failures: 2,
      resolved: null,
      lastFailure: { logId: relapse.id },
    });
    expect(reopened.reopenedAt).not.toBeNull();
    // An old failure (the backfill reaching further back) does not reopen a resolved one.
    await stored(hook.id, [log(hook.id, 12, 200), log(hook.id, 11, 200), log(hook.id, 9, 200)]);
    expect(byCode(await listIssues(ctx, [appA]), 500)[0]!.state).toBe("open");
    await stored(hook.id, [log(hook.id, 7, 200), log(hook.id, 8, 200)]);
    expect(byCode(await listIssues(ctx, [appA]), 500)[0]!.state).toBe("resolved");
    await stored(hook.id, [log(hook.id, 60, 500, dbLost("0000aaaabbbb"))]);
    expect(byCode(await listIssues(ctx, [appA]), 500)[0]).toMatchObject({ state: "resolved", failures: 3 });
  });

  it("takes the number of successes from the configuration", async () => {
    ctx = await databases.fresh(kind, { issueResolveAfter: 1 });
    const hook = await watched();
    await stored(hook.id, [log(hook.id, 1, 200), log(hook.id, 2, 503, "Service Unavailable")]);
    expect((await listIssues(ctx, [appA]))[0]).toMatchObject({ state: "resolved", resolveAfter: 1 });
  });

  it("keeps a person's acknowledgement, resolution and ignoring, for their application only", async () => {
    const hook = await watched();
    await stored(hook.id, [log(hook.id, 5, 401, '{"error":"unauthorized"}'), log(hook.id, 6, 0, "")]);
    const [auth, none] = await listIssues(ctx, [appA]);
    expect(auth!.statusCode).toBe(401);

    expect(
      await appErrorOf(() =>
        changeIssue(ctx, [appB], auth!.id, { action: "resolve", name: "Eve", note: null }),
      ),
    ).toMatchObject({
      code: "not_found",
    });
    expect((await listIssues(ctx, [appA]))[0]!.state).toBe("open");

    const acknowledged = await changeIssue(ctx, [appA], auth!.id, {
      action: "acknowledge",
      name: "Ada",
      note: "Customer rotating their secret today",
    });
    expect(acknowledged).toMatchObject({
      state: "acknowledged",
      lastChange: { name: "Ada", note: "Customer rotating their secret today" },
    });
    // An acknowledged issue keeps counting, and stays acknowledged.
    await stored(hook.id, [log(hook.id, 4, 401, '{"error":"unauthorized"}')]);
    expect((await listIssues(ctx, [appA])).find((i) => i.id === auth!.id)).toMatchObject({
      state: "acknowledged",
      failures: 2,
    });

    // Resolved by a person: only a failure after that reopens it.
    const resolved = await changeIssue(ctx, [appA], auth!.id, {
      action: "resolve",
      name: "Ada",
      note: null,
    });
    expect(resolved.resolved).toMatchObject({ by: "person" });
    await stored(hook.id, [log(hook.id, 3, 401, '{"error":"unauthorized"}')]);
    expect(
      (await listIssues(ctx, [appA], { webhookId: hook.id })).find((i) => i.id === auth!.id),
    ).toMatchObject({
      state: "resolved",
      failures: 3,
    });

    // Ignored stays ignored, however many failures and successes follow, and still counts.
    await changeIssue(ctx, [appA], none!.id, { action: "ignore", name: "Bob", note: null });
    await stored(hook.id, [
      log(hook.id, -1, 0, ""),
      log(hook.id, -2, 200),
      log(hook.id, -3, 200),
      log(hook.id, -4, 200),
    ]);
    expect((await listIssues(ctx, [appA])).find((i) => i.id === none!.id)).toMatchObject({
      state: "ignored",
      failures: 2,
    });
    const reopened = await changeIssue(ctx, [appA], none!.id, {
      action: "reopen",
      name: "Bob",
      note: "Look again",
    });
    expect(reopened).toMatchObject({ state: "open", lastChange: { name: "Bob", note: "Look again" } });

    // Stopping the watch takes its issues with it.
    await removeWatch(ctx, [appA], hook.id);
    expect(await listIssues(ctx, [appA])).toEqual([]);
    expect(await ctx.db.selectFrom("failure_issue_samples").selectAll().execute()).toEqual([]);
  });

  it("counts nothing from a write that failed, and everything once when the poll is taken up again", async () => {
    const hook = await watched();
    const good = Array.from({ length: 250 }, (_, i) =>
      log(hook.id, i + 1, 500, dbLost(`id${i}`.padEnd(12, "0"))),
    );
    // A log the database refuses (no send time) in the second chunk: the whole write is undone.
    const broken = { ...good[220]!, id: uuid(), sendAt: "not a time" };
    await expect(stored(hook.id, [...good.slice(0, 220), broken])).rejects.toThrow();
    expect(await listIssues(ctx, [appA])).toEqual([]);
    expect(await ctx.db.selectFrom("watch_logs").selectAll().execute()).toEqual([]);

    expect(await stored(hook.id, good)).toHaveLength(250);
    expect(await stored(hook.id, good.slice(0, 100))).toEqual([]);
    expect(await listIssues(ctx, [appA])).toMatchObject([{ failures: 250 }]);
  });

  it("builds the issues of the logs a store held before issues existed, when the watcher starts", async () => {
    const hook = await watched();
    const logs = [
      log(hook.id, 1, 404, "Not Found"),
      log(hook.id, 2, 200),
      log(hook.id, 3, 200),
      log(hook.id, 4, 200),
      log(hook.id, 5, 500, dbLost("aaaa11112222")),
      log(hook.id, 6, 500, dbLost("bbbb33334444")),
    ];
    await stored(hook.id, logs);
    const expected = await listIssues(ctx, [appA]);
    expect(expected.map((i) => [i.statusCode, i.state, i.failures])).toEqual([
      [404, "open", 1],
      [500, "resolved", 2],
    ]);
    // Back to the schema before issues (their tables go), then forward again.
    const migrator = new Migrator({ db: ctx.db, provider: migrations });
    expect((await migrator.migrateTo("0001_watch")).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await listIssues(ctx, [appA])).toEqual([]);
    await fillDerived(ctx);
    const rebuilt = await listIssues(ctx, [appA]);
    expect(rebuilt).toEqual(expected.map((issue) => ({ ...issue, id: expect.any(String) })));
  });

  it("signs each failure it stores with its issue's signature, and the failures held before, when the watcher starts", async () => {
    const hook = await watched();
    await stored(hook.id, [
      log(hook.id, 1, 500, "Out of memory in worker 7"),
      log(hook.id, 2, 200),
      log(hook.id, 3, 500, dbLost("aaaa11112222")),
      log(hook.id, 4, 500, dbLost("bbbb33334444")),
    ]);
    const signatures = async () =>
      (
        await ctx.db
          .selectFrom("watch_logs")
          .select(["status_code", "signature"])
          .orderBy("send_at", "desc")
          .execute()
      ).map((row) => [row.status_code, row.signature]);
    const issues = await listIssues(ctx, [appA]);
    const of = (text: string) => issues.find((issue) => issue.signatureText.includes(text))!.signature;
    const expected = [
      [500, of("memory")],
      [200, null],
      [500, of("database")],
      [500, of("database")],
    ];
    expect(await signatures()).toEqual(expected);
    const migrator = new Migrator({ db: ctx.db, provider: migrations });
    expect((await migrator.migrateTo("0007_logs_by_id")).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect((await signatures()).every(([, signature]) => signature === null)).toBe(true);
    await fillDerived(ctx);
    expect(await signatures()).toEqual(expected);
  });

  it("prunes resolved issues past the retention, and keeps open ones", async () => {
    const hook = await watched();
    await stored(hook.id, [
      log(hook.id, 40 * 24 * 60, 200),
      log(hook.id, 40 * 24 * 60 + 1, 200),
      log(hook.id, 40 * 24 * 60 + 2, 200),
      log(hook.id, 40 * 24 * 60 + 3, 500, "old"),
      log(hook.id, 35 * 24 * 60, 404, "still open"),
    ]);
    expect((await listIssues(ctx, [appA])).map((i) => i.state)).toEqual(["open", "resolved"]);
    await prune(ctx, 30, NOW);
    expect(await listIssues(ctx, [appA])).toMatchObject([{ statusCode: 404, state: "open" }]);
  });
});
