/**
 * The history questions in SQL, on SQLite and on a real PostgreSQL: filters, paging, Find, the
 * stream, Delivery health and the one failing streak, failure issues' deliveries, cut bodies.
 */
import { addWatches } from "@/lib/server/watch/watches";
import { listIssues } from "@/lib/server/watch/failure-issues";
import { beforeEach, describe, expect, it } from "vitest";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { EMPTY_QUESTION, type HistoryQuestion } from "@/lib/domain/history/question";
import { applicationId } from "@/lib/server/session/key-hash";
import type { StoreContext } from "@/lib/server/store/context";
import { issueScope } from "@/lib/server/watch/issue-logs";

import * as questions from "@/lib/server/history/questions";
import { appErrorOf } from "@/tests/support/app-error-of";
import { storeLogs, WATCH_DATABASES, watchDatabases } from "@/tests/support/watch-databases";

const databases = watchDatabases();

const KEY = "questions-key-0123456789abcdef";
const OTHER_KEY = "questions-key-fedcba9876543210";
const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
const HOUR = 3_600_000;
const NOW = Math.ceil(Date.now() / HOUR) * HOUR + 30 * 60_000;

const id = (n: number, prefix = "1") =>
  `${prefix.repeat(8)}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

/**
 * 200 logs, one every 3 minutes back from a minute ago, newest first: a failing streak of the
 * newest 40 (longer than the last hour), a success before it, and a mix of codes before that.
 */
const LOGS: WebhookLog[] = Array.from({ length: 200 }, (_, i) => {
  const sent = NOW - 60_000 - i * 180_000;
  const failed = i < 40 || (i > 40 && i % 4 === 0);
  const statusCode = failed ? [500, 404, 0, 502][i % 4]! : 200;
  return {
    id: id(i),
    webhookId: WEBHOOK,
    statusCode,
    responseBody: failed ? `Upstream ERROR ${statusCode} at #${i}` : '{"ok":true}',
    status: failed ? "Failed" : "Success",
    sendAt: new Date(sent).toISOString(),
    createdDate: new Date(sent + 5).toISOString(),
    messageId: id(i, "2"),
    webhook: { id: WEBHOOK, endpoint: "https://example.test/hook", eventType: "Message" },
  };
});

const q = (fields: Partial<HistoryQuestion> = {}): HistoryQuestion => ({ ...EMPTY_QUESTION, ...fields });
const sent = (log: WebhookLog) => Date.parse(log.sendAt);

describe.each(WATCH_DATABASES)("history questions on %s", (kind) => {
  let ctx: StoreContext;
  const appId = applicationId(KEY);
  const all = { webhookId: WEBHOOK, from: null, complete: true };

  beforeEach(async () => {
    ctx = await databases.fresh(kind, { bodyCapBytes: 64 });
    await addWatches(ctx, appId, KEY, [
      {
        webhook: {
          id: WEBHOOK,
          endpoint: "https://example.test/hook",
          eventType: "Message",
          numberOfErrors: 0,
          active: true,
        },
      },
    ]);
  });

  const ids = async (question: HistoryQuestion, page = { offset: 0, limit: 50 }, scope = all) =>
    (await questions.queryLogs(ctx.db, scope, question, page)).rows.map((row) => row.id);
  const expected = (keep: (log: WebhookLog, i: number) => boolean) => LOGS.filter(keep).map((log) => log.id);

  it("filters by status, code, class, time and response text, and pages newest first", async () => {
    await storeLogs(ctx, WEBHOOK, LOGS, NOW);
    const since = NOW - 5 * HOUR;
    const until = NOW - HOUR;
    expect(
      await ids(q({ status: "Failed", code: { kind: "class", hundreds: 5 } }), { offset: 3, limit: 10 }),
    ).toEqual(expected((log) => log.status === "Failed" && log.statusCode >= 500).slice(3, 13));
    expect(await ids(q({ code: { kind: "exact", code: 0 } }))).toEqual(
      expected((log) => log.statusCode === 0),
    );
    expect(await ids(q({ since, until, contains: "error 0" }))).toEqual(
      expected(
        (log) =>
          sent(log) >= since && sent(log) <= until && log.responseBody.toLowerCase().includes("error 0"),
      ),
    );
    const page = await questions.queryLogs(ctx.db, all, q({ status: "Success" }), { offset: 0, limit: 5 });
    expect(page.total).toBe(LOGS.filter((log) => log.status === "Success").length);
    // `%` and `_` are text, not wildcards.
    expect(await ids(q({ contains: "_%" }))).toEqual([]);
  });

  it("matches response text in any case, letters beyond ASCII too", async () => {
    const logs = [
      { ...LOGS[0]!, responseBody: "ÉCHEC de livraison: Straße gesperrt" },
      { ...LOGS[1]!, responseBody: "all good" },
    ];
    await storeLogs(ctx, WEBHOOK, logs, NOW);
    expect(await ids(q({ contains: "échec" }))).toEqual([logs[0]!.id]);
    expect(await ids(q({ contains: "straße" }))).toEqual([logs[0]!.id]);
    expect(await ids(q({ contains: "GOOD".toLowerCase() }))).toEqual([logs[1]!.id]);
  });

  it("answers within its scope only: the part of the copy below a gap is not read", async () => {
    await storeLogs(ctx, WEBHOOK, LOGS, NOW);
    const from = Date.parse(LOGS[99]!.createdDate);
    const scope = { webhookId: WEBHOOK, from, complete: false };
    expect(await questions.countScope(ctx.db, scope, null)).toBe(100);
    expect((await questions.queryLogs(ctx.db, scope, q(), { offset: 0, limit: 1 })).total).toBe(100);
    expect(
      await questions.findLog(ctx.db, scope, { kind: "log", id: LOGS[150]!.id, webhookId: WEBHOOK }),
    ).toBeNull();
  });

  it("finds a log by its id or its message id, at its place newest first, and streams every match", async () => {
    await storeLogs(ctx, WEBHOOK, LOGS, NOW);
    expect(await questions.findLog(ctx.db, all, { kind: "id", id: LOGS[120]!.messageId! })).toMatchObject({
      log: { id: LOGS[120]!.id },
      index: 120,
    });
    expect(
      await questions.findLog(ctx.db, all, { kind: "log", id: LOGS[7]!.id, webhookId: WEBHOOK }, "Failed"),
    ).toMatchObject({ index: 7 });
    expect(await questions.findLog(ctx.db, all, { kind: "id", id: id(999) })).toBeNull();
    const streamed: string[] = [];
    for await (const batch of questions.streamLogs(ctx.db, all, q({ status: "Failed" })))
      streamed.push(...batch.map((log) => log.id));
    expect(streamed).toEqual(expected((log) => log.status === "Failed"));
  });

  it("counts Delivery health: buckets, rate, newest success and failure, failures by code", async () => {
    await storeLogs(ctx, WEBHOOK, LOGS, NOW);
    const since = NOW - 2 * HOUR;
    const health = await questions.health(ctx.db, all, q({ since }), NOW);
    const window = LOGS.filter((log) => sent(log) >= since);
    const failed = window.filter((log) => log.status === "Failed");
    expect(health).toMatchObject({
      from: new Date(since).toISOString(),
      to: new Date(NOW).toISOString(),
      attempts: window.length,
      failed: failed.length,
      success: window.length - failed.length,
      successRate: Math.round(((window.length - failed.length) / window.length) * 1000) / 10,
      lastFailure: { logId: LOGS[0]!.id, statusCode: 500 },
      lastSuccess: null,
    });
    expect(health.buckets.reduce((sum, b) => sum + b.success + b.failed, 0)).toBe(window.length);
    expect(health.bucketMs).toBe(300_000);
    const codes = new Map<number, number>();
    for (const log of failed) codes.set(log.statusCode, (codes.get(log.statusCode) ?? 0) + 1);
    expect(health.failuresByCode.map((c) => [c.statusCode, c.count]).sort()).toEqual([...codes].sort());
    expect(
      await questions.health(ctx.db, all, q({ since: NOW + HOUR, until: NOW + 2 * HOUR }), NOW),
    ).toMatchObject({
      attempts: 0,
      successRate: null,
      lastSuccess: null,
    });
  });

  it("computes the failing streak once: from the newest failure back to the success that ended it", async () => {
    await storeLogs(ctx, WEBHOOK, LOGS.slice(0, 30), NOW);
    const part = { webhookId: WEBHOOK, from: Date.parse(LOGS[29]!.createdDate), complete: false };
    // No success in what the copy holds, and it does not reach the first delivery: "at least".
    expect(await questions.streak(ctx.db, part)).toMatchObject({
      length: 30,
      atLeast: true,
      since: LOGS[29]!.sendAt,
    });
    // The same logs as the whole history: exact.
    expect(await questions.streak(ctx.db, { ...part, complete: true })).toMatchObject({
      length: 30,
      atLeast: false,
    });
    await storeLogs(ctx, WEBHOOK, LOGS.slice(30), NOW);
    const whole = await questions.streak(ctx.db, all);
    expect(whole).toMatchObject({ length: 40, atLeast: false, since: LOGS[39]!.sendAt });
    expect(whole!.codes.reduce((sum, code) => sum + code.count, 0)).toBe(40);
    // Delivery health carries the same streak, whatever its window.
    expect((await questions.health(ctx.db, all, q({ since: NOW - HOUR }), NOW)).failingStreak).toEqual(whole);
  });

  it("has no streak when the newest delivery succeeded", async () => {
    await storeLogs(ctx, WEBHOOK, LOGS.slice(40, 60), NOW);
    expect(await questions.streak(ctx.db, all)).toBeNull();
  });

  it("gives each failure issue of one status code its own deliveries", async () => {
    // Every third log a lost database, every third an out-of-memory, both 500; successes between.
    const logs = LOGS.slice(0, 60).map((log, i): WebhookLog => {
      if (i % 3 === 2) return { ...log, status: "Success", statusCode: 200, responseBody: '{"ok":true}' };
      const responseBody =
        i % 3 === 0
          ? `{"error":"database connection lost","requestId":"req_${(1e9 + i * 7919).toString(16)}"}`
          : `Out of memory in worker ${i}`;
      return { ...log, status: "Failed", statusCode: 500, responseBody };
    });
    await storeLogs(ctx, WEBHOOK, logs, NOW);
    const issues = await listIssues(ctx, [appId], { webhookId: WEBHOOK });
    expect(issues.map((issue) => [issue.statusCode, issue.failures]).sort()).toEqual([
      [500, 20],
      [500, 20],
    ]);
    for (const issue of issues) {
      const scope = await issueScope(ctx, appId, WEBHOOK, issue.id);
      const memory = issue.signatureText.includes("memory");
      const own = logs.filter(
        (log) => log.status === "Failed" && log.responseBody.includes("memory") === memory,
      );
      expect(await ids(q({ since: scope.firstFailureAt, issue: scope.filter }))).toEqual(
        own.map((log) => log.id),
      );
    }
    for (const refused of [
      () => issueScope(ctx, appId, WEBHOOK, id(999, "3")),
      () => issueScope(ctx, applicationId(OTHER_KEY), WEBHOOK, issues[0]!.id),
    ]) {
      expect(await appErrorOf(refused)).toMatchObject({
        code: "bad_request",
        message: expect.stringMatching(/^Failure issue: .* Clear the issue filter/),
      });
    }
  });

  it("counts the bodies cut at the copy's cap where they could change an answer", async () => {
    const cut = { ...LOGS[2]!, responseBody: `Gateway says: ${"x".repeat(100)} needle` };
    await storeLogs(ctx, WEBHOOK, [LOGS[0]!, LOGS[1]!, cut, ...LOGS.slice(3, 10)], NOW);
    // The kept part holds "gateway": that answer is exact; "needle" may lie past the cut.
    expect(await questions.cutBodies(ctx.db, all, q({ contains: "gateway" }))).toBe(0);
    expect(await questions.cutBodies(ctx.db, all, q({ contains: "needle" }))).toBe(1);
    // An export writes bodies: a cut one among its rows counts.
    expect(await questions.cutBodies(ctx.db, all, q())).toBe(1);
    expect(await questions.cutBodies(ctx.db, all, q({ status: "Success" }))).toBe(0);
    const rows = (await questions.queryLogs(ctx.db, all, q(), { offset: 0, limit: 4 })).rows;
    expect(rows.map((row) => row.responseBodyTruncated)).toEqual([false, false, true, false]);
  });
});
