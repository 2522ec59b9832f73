/**
 * The store's answers to history questions, on SQLite and on a real PostgreSQL: the same result
 * a scan of the hub gives over the same logs (the real scan, against a fake hub serving them),
 * and each reason the scan must answer instead.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { EMPTY_QUESTION, type HistoryQuestion } from "@/lib/domain/history/question";
import { resetServerConfigForTests } from "@/lib/server/config";
import { resetHistoryForTests, scanHistory } from "@/lib/server/history/scan";
import { parseWebhookId } from "@/lib/server/hub/path-params";
import { applicationId } from "@/lib/server/session/key-hash";
import type { StoreContext } from "@/lib/server/watch/context";
import { claimDue, finishPoll, recordWebhook, writeLogs, type CursorChange } from "@/lib/server/watch/cursor";
import { issueScope } from "@/lib/server/watch/issue-logs";
import { storeOver } from "@/lib/server/watch/store";
import { storedWebhookIn, watchedHistoryIn, type WatchedHistory } from "@/lib/server/watch/store-answers";
import { markKeyRejected } from "@/lib/server/watch/watches";
import { appErrorOf } from "@/tests/support/app-error-of";
import { servesLogs } from "@/tests/support/fake-upstream";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { WATCH_DATABASES, watchDatabases } from "@/tests/support/watch-databases";

const databases = watchDatabases();
const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_TIMEOUT_MS: "2000",
  WATCH_INTERVAL_SECONDS: "60",
});

const KEY = "store-answers-key-0123456789abcdef";
const OTHER_KEY = "store-answers-key-fedcba9876543210";
const WEBHOOK = parseWebhookId("0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d")!;
const HOUR = 3_600_000;
/** Half past an hour, after the watch's first planned poll (added at the real time). */
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

/** What the store adds to a log beyond the API's fields. */
function apiShape<T extends { rows: object[] }>(result: T) {
  return {
    ...result,
    rows: result.rows.map((row) => {
      const { responseBodySize, responseBodySha256, responseBodyTruncated, ...log } = row as Record<
        string,
        unknown
      >;
      void [responseBodySize, responseBodySha256, responseBodyTruncated];
      return log;
    }),
  };
}

beforeEach(() => {
  resetServerConfigForTests();
  resetHistoryForTests();
  fake.current.handle = servesLogs(LOGS);
});
afterEach(() => resetServerConfigForTests());

describe.each(WATCH_DATABASES)("store answers on %s", (kind) => {
  let ctx: StoreContext;
  const appId = applicationId(KEY);

  beforeEach(async () => {
    ctx = await databases.fresh(kind);
    await storeOver(ctx).addWatches(appId, KEY, [
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

  /** Writes logs as the watcher does (claimed, written with the cursor, released), polled at `now`. */
  async function stored(logs: WebhookLog[], cursor: CursorChange = { history_complete: 1 }, now = NOW) {
    const claimed = await claimDue(ctx, "test", 10, 60_000, now);
    expect(claimed.map((c) => c.state.webhook_id)).toContain(WEBHOOK);
    await writeLogs(
      ctx,
      "test",
      WEBHOOK,
      logs,
      { head_id: logs[0]?.id ?? null, tail_offset: null, complete_from: null, ...cursor },
      60_000,
      now,
    );
    await finishPoll(ctx, "test", WEBHOOK, { nextPollAt: now, error: null }, now);
  }

  async function answers(now = NOW): Promise<WatchedHistory> {
    const watched = await watchedHistoryIn(ctx, appId, WEBHOOK, now);
    if ("why" in watched) throw new Error(`the store did not answer: ${watched.why}`);
    return watched;
  }

  const scan = (
    question: HistoryQuestion,
    options: { offset: number; limit: number; followStreak?: boolean },
  ) =>
    scanHistory(
      { apiKey: KEY, signal: new AbortController().signal },
      WEBHOOK,
      question,
      { cap: 20_000, ...options },
      NOW,
    );

  it.each([
    [
      "health of the last hour, the streak followed past it",
      q({ since: NOW - HOUR }),
      { offset: 0, limit: 5, followStreak: true },
    ],
    ["health of the last 24 h", q({ since: NOW - 24 * HOUR }), { offset: 0, limit: 5, followStreak: true }],
    [
      "the failures of the last 5 h, a later page",
      q({ since: NOW - 5 * HOUR, status: "Failed" }),
      { offset: 12, limit: 5, followStreak: true },
    ],
    [
      "failed 5xx over the whole history, a later page",
      q({ status: "Failed", code: { kind: "class", hundreds: 5 } }),
      { offset: 3, limit: 10 },
    ],
    [
      "a time range and response text",
      q({ since: NOW - 5 * HOUR, until: NOW - HOUR, contains: "error 0" }),
      { offset: 0, limit: 50 },
    ],
    ["one exact code", q({ code: { kind: "exact", code: 0 } }), { offset: 0, limit: 50 }],
  ])("gives the scan's answer: %s", async (_name, question, options) => {
    await stored(LOGS);
    const watched = await answers();
    expect(await watched.cannotAnswer(question, "rows")).toBeNull();
    const fromStore = await watched.result(question, { cap: 20_000, followStreak: false, ...options }, NOW);
    const fromScan = await scan(question, options);
    expect(fromStore.matches).toBeGreaterThan(0);
    expect(apiShape(fromStore)).toEqual(fromScan);
  });

  it("finds a log by its id or its message id, at its place newest first, and streams every match", async () => {
    await stored(LOGS);
    const watched = await answers();
    expect(await watched.find({ kind: "id", id: LOGS[120]!.messageId! })).toMatchObject({
      log: { id: LOGS[120]!.id },
      position: 120,
      total: 200,
    });
    expect(await watched.find({ kind: "log", id: LOGS[7]!.id, webhookId: WEBHOOK })).toMatchObject({
      position: 7,
    });
    expect(await watched.find({ kind: "id", id: id(999) })).toBeNull();
    const streamed: string[] = [];
    for await (const batch of watched.stream(q({ status: "Failed" })))
      streamed.push(...batch.map((l) => l.id));
    expect(streamed).toEqual(LOGS.filter((l) => l.status === "Failed").map((l) => l.id));
    const since = NOW - 2 * HOUR;
    const window: string[] = [];
    for await (const batch of watched.stream(q({ since }))) window.push(...batch.map((l) => l.id));
    expect(window).toEqual(LOGS.filter((l) => Date.parse(l.sendAt) >= since).map((l) => l.id));
  });

  it("says why the scan must answer: not watched here, still reading, stale, key rejected", async () => {
    expect(await watchedHistoryIn(ctx, applicationId(OTHER_KEY), WEBHOOK, NOW)).toEqual({
      why: "this webhook is not watched by this application.",
    });
    expect(await watchedHistoryIn(ctx, appId, WEBHOOK, NOW)).toMatchObject({
      why: expect.stringContaining("still reading this webhook's history"),
    });
    await stored(LOGS);
    expect("why" in (await watchedHistoryIn(ctx, appId, WEBHOOK, NOW + 60_000))).toBe(false);
    expect(await watchedHistoryIn(ctx, appId, WEBHOOK, NOW + 6 * 60_000)).toEqual({
      why: "the watch last read this webhook 6 min ago, too long to answer from its copy.",
    });
    await markKeyRejected(ctx, appId, "the hub answered 401");
    expect(await watchedHistoryIn(ctx, appId, WEBHOOK, NOW)).toMatchObject({
      why: expect.stringContaining("rejects the key"),
    });
  });

  it("answers only within what it holds, and never from a body it cut where that matters", async () => {
    const cut = { ...LOGS[2]!, responseBody: `Gateway says: ${"x".repeat(100)} needle` };
    const logs = [LOGS[0]!, LOGS[1]!, cut, ...LOGS.slice(3, 100)];
    const from = Date.parse(logs.at(-1)!.createdDate);
    await stored(logs, { history_complete: 0, complete_from: from });
    const watched = await answers();
    expect(await watched.cannotAnswer(q({ since: from }), "rows")).toBeNull();
    expect(await watched.cannotAnswer(q({ since: from - 1 }), "rows")).toMatch(
      /^the watch holds this webhook's deliveries from \d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? UTC on/,
    );
    expect(await watched.cannotAnswer(q(), "rows")).toMatch(/this question reaches further back/);
    // Response contains: the kept part decides, unless the text may lie past the cut.
    expect(await watched.cannotAnswer(q({ since: from, contains: "gateway" }), "rows")).toBeNull();
    expect(await watched.cannotAnswer(q({ since: from, contains: "needle" }), "rows")).toMatch(
      /cut at the watch's cap/,
    );
    expect(await watched.cannotAnswer(q({ since: from, contains: "é" }), "rows")).toMatch(
      /beyond plain ASCII/,
    );
    // An export writes bodies whole: one cut body among its matches sends it to the scan.
    expect(await watched.cannotAnswer(q({ since: from }), "export")).toMatch(/longer than the watch keeps/);
    expect(await watched.cannotAnswer(q({ since: from, status: "Success" }), "export")).toBeNull();
    const page = await watched.result(
      q({ since: from }),
      { cap: 100, offset: 0, limit: 5, followStreak: true },
      NOW,
    );
    expect(page.rows.map((row) => row.responseBodyTruncated)).toEqual([false, false, true, false, false]);
  });

  it("marks a streak reaching past what it holds as 'at least', and one it holds whole as exact", async () => {
    const failing = LOGS.slice(0, 30);
    await stored(failing, { history_complete: 0, complete_from: Date.parse(failing.at(-1)!.createdDate) });
    const open = await (
      await answers()
    ).result(q({ since: NOW - HOUR }), { cap: 100, offset: 0, limit: 5, followStreak: true }, NOW);
    expect(open.summary.failingStreak).toMatchObject({
      length: 30,
      atLeast: true,
      since: failing.at(-1)!.sendAt,
    });
    await stored(LOGS.slice(30), { history_complete: 1 });
    const whole = await (
      await answers()
    ).result(q({ since: NOW - HOUR }), { cap: 100, offset: 0, limit: 5, followStreak: true }, NOW);
    expect(whole.summary.failingStreak).toMatchObject({
      length: 40,
      atLeast: false,
      since: LOGS[39]!.sendAt,
    });
    // Without following it, the streak is the one read within the question's range, as a scan stopping there sees it.
    const inRange = await (
      await answers()
    ).result(q({ since: NOW - HOUR }), { cap: 100, offset: 0, limit: 5, followStreak: false }, NOW);
    expect(inRange.summary.failingStreak).toMatchObject({ length: 20, atLeast: true });
  });

  it("gives each failure issue of one status code its own deliveries, as the scan does", async () => {
    // Every third log a lost database, every third an out-of-memory, both 500; successes between.
    const logs = LOGS.slice(0, 60).map((log, i): WebhookLog => {
      if (i % 3 === 2) return { ...log, status: "Success", statusCode: 200, responseBody: '{"ok":true}' };
      const responseBody =
        i % 3 === 0
          ? `{"error":"database connection lost","requestId":"req_${(1e9 + i * 7919).toString(16)}"}`
          : `Out of memory in worker ${i}`;
      return { ...log, status: "Failed", statusCode: 500, responseBody };
    });
    fake.current.handle = servesLogs(logs);
    await stored(logs);
    const issues = await storeOver(ctx).listIssues([appId], { webhookId: WEBHOOK });
    expect(issues.map((issue) => [issue.statusCode, issue.signatureText, issue.failures]).sort()).toEqual([
      [500, "Out of memory in worker <n>", 20],
      [500, '{"error":"database connection lost","requestId":"<id>"}', 20],
    ]);
    const watched = await answers();
    for (const issue of issues) {
      const scope = await issueScope(ctx, appId, WEBHOOK, issue.id);
      const question = q({ since: scope.firstFailureAt, issue: scope.filter });
      expect(await watched.cannotAnswer(question, "rows")).toBeNull();
      const options = { offset: 0, limit: 50 };
      const fromStore = await watched.result(question, { cap: 20_000, followStreak: false, ...options }, NOW);
      const memory = issue.signatureText.includes("memory");
      const own = logs.filter(
        (log) => log.status === "Failed" && log.responseBody.includes("memory") === memory,
      );
      expect(fromStore.rows.map((row) => row.id)).toEqual(own.map((log) => log.id));
      expect(fromStore.matches).toBe(20);
      expect(apiShape(fromStore)).toEqual(await scan(question, options));
      const streamed: string[] = [];
      for await (const batch of watched.stream(question)) streamed.push(...batch.map((log) => log.id));
      expect(streamed).toEqual(own.map((log) => log.id));
    }
  });

  it("refuses an issue that is not this webhook's under this application, naming the field", async () => {
    await stored([{ ...LOGS[0]!, status: "Failed", statusCode: 500, responseBody: "boom" }]);
    const [issue] = await storeOver(ctx).listIssues([appId], { webhookId: WEBHOOK });
    expect(issue).toBeDefined();
    for (const refused of [
      () => issueScope(ctx, appId, WEBHOOK, id(999, "3")),
      () => issueScope(ctx, applicationId(OTHER_KEY), WEBHOOK, issue!.id),
    ]) {
      expect(await appErrorOf(refused)).toMatchObject({
        code: "bad_request",
        message: expect.stringMatching(/^Failure issue: .* Clear the issue filter/),
      });
    }
  });

  it("keeps the webhook as the watch last read it, for when the hub does not answer; only for its application", async () => {
    expect(await storedWebhookIn(ctx, appId, WEBHOOK)).toBeNull();
    const claimed = await claimDue(ctx, "test", 10, 60_000, NOW);
    expect(claimed).toHaveLength(1);
    await recordWebhook(
      ctx,
      "test",
      {
        id: WEBHOOK,
        endpoint: "https://example.test/hook",
        eventType: "Message",
        numberOfErrors: 7,
        active: false,
      },
      60_000,
      NOW,
    );
    await finishPoll(ctx, "test", WEBHOOK, { nextPollAt: NOW, error: null }, NOW);
    expect(await storedWebhookIn(ctx, appId, WEBHOOK.toUpperCase())).toEqual({
      webhook: {
        id: WEBHOOK,
        endpoint: "https://example.test/hook",
        eventType: "Message",
        numberOfErrors: 7,
        active: false,
      },
      asOf: new Date(NOW).toISOString(),
    });
    expect(await storedWebhookIn(ctx, applicationId(OTHER_KEY), WEBHOOK)).toBeNull();
  });
});
