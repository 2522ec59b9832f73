/**
 * The history routes for a webhook the session's application watches: health, the filtered
 * history, Find and exports answer from the watch's store with no upstream call, and give what
 * the scan gives over the same logs (asked by a session whose application does not watch it,
 * which still scans). Handlers called directly, against a fake hub and an in-memory store.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { resetHistoryForTests } from "@/lib/server/history/scan";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { applicationId } from "@/lib/server/session/key-hash";
import { claimDue, finishPoll, writeLogs } from "@/lib/server/watch/cursor";
import { sharedStoreContext, storeOver } from "@/lib/server/watch/store";
import { servesLogs } from "@/tests/support/fake-upstream";
import { request, signedInCookie, WEBHOOK } from "@/tests/support/route-requests";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import * as scanRoute from "@/app/api/webhooks/[webhookId]/history/route";
import * as healthRoute from "@/app/api/webhooks/[webhookId]/history/health/route";
import * as findRoute from "@/app/api/webhooks/[webhookId]/history/find/route";
import * as exportRoute from "@/app/api/webhooks/[webhookId]/history/export/route";

/** The key of the application that watches WEBHOOK, and one of an application that does not. */
const KEY = "watched-history-key-0123456789ab";
const OTHER_KEY = "unwatched-history-key-0123456789";
const HOUR = 3_600_000;
/** Half past an hour, after the watch's first planned poll. */
const NOW = Math.ceil(Date.now() / HOUR) * HOUR + 30 * 60_000;
const ENDPOINT = "https://example.test/hook";

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_TIMEOUT_MS: "2000",
  HUB_SANDBOX: "",
  WATCH_DB: ":memory:",
  WATCH_IN_CONSOLE: "0",
  WATCH_INTERVAL_SECONDS: "60",
});

const id = (n: number, p = "1") => `${p.repeat(8)}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

/** 300 logs, one a minute up to now, newest first: the newest 12 failing (500, then 0), a mix before. */
const LOGS: WebhookLog[] = Array.from({ length: 300 }, (_, i) => {
  const at = NOW - 30_000 - i * 60_000;
  const failed = i < 12 || i % 7 === 0;
  const statusCode = failed ? (i % 2 === 0 ? 500 : 0) : 200;
  return {
    id: id(i),
    webhookId: WEBHOOK,
    statusCode,
    responseBody: failed ? `=upstream error ${statusCode} #${i}` : '{"ok":true}',
    status: failed ? "Failed" : "Success",
    sendAt: new Date(at).toISOString(),
    createdDate: new Date(at + 3).toISOString(),
    messageId: id(i, "2"),
    webhook: { id: WEBHOOK, endpoint: ENDPOINT, eventType: "Message" },
  };
});

const ctx = { params: Promise.resolve({ webhookId: WEBHOOK }) };
const logCalls = () => fake.current.requests.filter((r) => r.url.includes("/webhook-log")).length;

/** The store of this file's console (WATCH_DB in memory): WEBHOOK watched under KEY's application, its 300 logs polled at NOW. */
async function watchOnce(): Promise<void> {
  const store = await sharedStoreContext();
  const appId = applicationId(KEY);
  if (await storeOver(store).getWatch([appId], WEBHOOK)) return;
  const webhook = { id: WEBHOOK, endpoint: ENDPOINT, eventType: "Message", numberOfErrors: 5, active: true };
  await storeOver(store).addWatches(appId, KEY, [{ webhook, name: "Acme" }]);
  await claimDue(store, "test", 10, 60_000, NOW);
  const cursor = { head_id: LOGS[0]!.id, tail_offset: null, history_complete: 1, complete_from: null };
  await writeLogs(store, "test", WEBHOOK, LOGS, cursor, 60_000, NOW);
  await finishPoll(store, "test", WEBHOOK, { nextPollAt: NOW + HOUR, error: null }, NOW);
}

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
  signInLimiter.reset();
  resetHistoryForTests();
  fake.current.handle = servesLogs(LOGS);
  await watchOnce();
  vi.setSystemTime(NOW + 5_000);
  // Calls of the previous test's scan may still be landing: let them, before counting.
  await new Promise((resolve) => setTimeout(resolve, 200));
  fake.current.requests.length = 0;
});
afterEach(() => vi.useRealTimers());

function get(path: string, cookie: string): Request {
  return request("GET", `/api/webhooks/${WEBHOOK}/history${path}`, { cookie });
}

async function resultOf(response: Response): Promise<Record<string, unknown>> {
  expect(response.status).toBe(200);
  const lines = (await response.text()).trim().split("\n");
  return JSON.parse(lines.at(-1)!) as Record<string, unknown>;
}

/** The answer without its source, rows in the API's fields only (the store adds body size and hash). */
function comparable(answer: Record<string, unknown>) {
  const { source, ...rest } = answer;
  void source;
  const rows = (rest.rows as Array<Record<string, unknown>> | undefined)?.map(
    ({ responseBodySize, responseBodySha256, responseBodyTruncated, ...log }) => {
      void [responseBodySize, responseBodySha256, responseBodyTruncated];
      return log;
    },
  );
  return rows ? { ...rest, rows } : rest;
}

/** Asks `path` as the watching application (with no upstream call) and as one that does not watch (a scan). */
async function askBoth(route: typeof scanRoute.GET, path: string) {
  const watching = await signedInCookie(KEY);
  const stored = await route(get(path, watching), ctx);
  const callsWhenWatched = logCalls();
  const other = await signedInCookie(OTHER_KEY);
  const scanned = await route(get(path, other), ctx);
  return { stored, scanned, callsWhenWatched, callsWhenScanned: logCalls() - callsWhenWatched };
}

describe("a watched webhook's history, from the store", () => {
  it.each([
    ["health of the last hour", healthRoute.GET, "/health?window=1h"],
    ["health of the last 24 h", healthRoute.GET, "/health?window=24h"],
    ["failed 5xx, a later page", scanRoute.GET, "?status=Failed&code=5xx&offset=5&limit=10"],
    [
      "a time range and response text",
      scanRoute.GET,
      `?since=${new Date(NOW - 3 * HOUR).toISOString()}&until=${new Date(NOW - HOUR).toISOString()}&contains=ERROR%200`,
    ],
  ])("%s: no upstream call, and the scan's answer", async (_name, route, path) => {
    const { stored, scanned, callsWhenWatched, callsWhenScanned } = await askBoth(route, path);
    const fromStore = await resultOf(stored);
    const fromScan = await resultOf(scanned);
    expect(callsWhenWatched).toBe(0);
    expect(callsWhenScanned).toBeGreaterThan(0);
    expect(fromStore.source).toEqual({ from: "watch", asOf: new Date(NOW).toISOString() });
    expect(fromScan.source).toEqual({
      from: "scan",
      why: "this webhook is not watched by this application.",
    });
    expect(fromStore.matches).toBeGreaterThan(0);
    expect(comparable(fromStore)).toEqual(comparable(fromScan));
  });

  it("Find (and so a ?log= link): from the store when it holds the delivery; a miss is scanned", async () => {
    const { stored, scanned, callsWhenWatched } = await askBoth(
      findRoute.GET,
      `/find?q=${LOGS[250]!.messageId}`,
    );
    expect(callsWhenWatched).toBe(0);
    const fromStore = (await stored.json()) as Record<string, unknown>;
    const fromScan = (await scanned.json()) as Record<string, unknown>;
    expect(fromStore).toMatchObject({ position: 250, total: 300, source: { from: "watch" } });
    expect(comparable(fromStore)).toMatchObject(comparable(fromScan));
    expect((fromStore.log as { id: string }).id).toBe(LOGS[250]!.id);

    const missing = await findRoute.GET(get(`/find?q=${id(9999)}`, await signedInCookie(KEY)), ctx);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(
      /No delivery with log or message ID .* in the 300 deliveries of this webhook/,
    );
    expect(logCalls()).toBeGreaterThan(callsWhenWatched);
  });

  it.each([
    ["CSV of failed 500s", "/export?format=csv&status=Failed&code=500"],
    ["JSON of the last two hours", `/export?format=json&since=${new Date(NOW - 2 * HOUR).toISOString()}`],
  ])("export, %s: the same file, with no upstream call, saying where it came from", async (_name, path) => {
    const { stored, scanned, callsWhenWatched } = await askBoth(exportRoute.GET, path);
    expect(stored.status).toBe(200);
    expect(stored.headers.get("x-history-source")).toBe(`watch; as-of=${new Date(NOW).toISOString()}`);
    expect(scanned.headers.get("x-history-source")).toBe("scan");
    expect(stored.headers.get("content-disposition")).toBe(scanned.headers.get("content-disposition"));
    const file = await stored.text();
    expect(callsWhenWatched).toBe(0);
    expect(file.length).toBeGreaterThan(200);
    expect(file).toBe(await scanned.text());
  });

  it("a question reaching back past what the store holds is scanned, and says why", async () => {
    const store = await sharedStoreContext();
    const from = NOW - 2 * HOUR;
    await store.db.updateTable("watch_state").set({ history_complete: 0, complete_from: from }).execute();
    try {
      const watching = await signedInCookie(KEY);
      const whole = await resultOf(await scanRoute.GET(get("?status=Failed", watching), ctx));
      expect(whole.source).toMatchObject({
        from: "scan",
        why: expect.stringMatching(/^the watch holds this webhook's deliveries from/),
      });
      expect(logCalls()).toBeGreaterThan(0);
      fake.current.requests.length = 0;
      const recent = await resultOf(
        await scanRoute.GET(get(`?status=Failed&since=${new Date(from).toISOString()}`, watching), ctx),
      );
      expect(recent.source).toMatchObject({ from: "watch" });
      expect(logCalls()).toBe(0);
    } finally {
      await store.db.updateTable("watch_state").set({ history_complete: 1, complete_from: null }).execute();
    }
  });

  it("a copy older than a few polls is not used: the scan answers, and says how old it is", async () => {
    vi.setSystemTime(NOW + 10 * 60_000);
    const result = await resultOf(
      await healthRoute.GET(get("/health?window=1h", await signedInCookie(KEY)), ctx),
    );
    expect(result.source).toEqual({
      from: "scan",
      why: "the watch last read this webhook 10 min ago, too long to answer from its copy.",
    });
    expect(logCalls()).toBeGreaterThan(0);
  });

  it("a failure issue's deliveries: from the store, its failures only; a stale copy's scan gives the same", async () => {
    const store = await sharedStoreContext();
    const issues = await storeOver(store).listIssues([applicationId(KEY)], { webhookId: WEBHOOK });
    const issue = issues.find((candidate) => candidate.statusCode === 500)!;
    const own = LOGS.filter((log) => log.status === "Failed" && log.statusCode === 500);
    const watching = await signedInCookie(KEY);
    const path = `?status=Failed&issue=${issue.id.toUpperCase()}&limit=50`;
    const fromStore = await resultOf(await scanRoute.GET(get(path, watching), ctx));
    expect(fromStore.source).toMatchObject({ from: "watch" });
    expect(logCalls()).toBe(0);
    expect(fromStore.matches).toBe(own.length);
    expect((fromStore.rows as WebhookLog[]).map((row) => row.id)).toEqual(own.map((log) => log.id));

    vi.setSystemTime(NOW + 10 * 60_000);
    const fromScan = await resultOf(await scanRoute.GET(get(path, watching), ctx));
    expect(fromScan.source).toMatchObject({ from: "scan" });
    expect(fromScan.matches).toBe(own.length);
    expect(comparable(fromScan).rows).toEqual(comparable(fromStore).rows);
  });

  it("an issue that is not an ID, not this webhook's, or not this application's is refused, naming the field", async () => {
    const store = await sharedStoreContext();
    const [issue] = await storeOver(store).listIssues([applicationId(KEY)], { webhookId: WEBHOOK });
    const watching = await signedInCookie(KEY);
    const asked = [
      [watching, "?issue=500"],
      [watching, `?issue=${id(999, "3")}`],
      [await signedInCookie(OTHER_KEY), `?issue=${issue!.id}`],
      [watching, `/export?format=csv&issue=${id(999, "3")}`],
    ] as const;
    for (const [cookie, path] of asked) {
      const route = path.startsWith("/export") ? exportRoute.GET : scanRoute.GET;
      const response = await route(get(path, cookie), ctx);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
        /Failure issue: /,
      );
    }
    expect(logCalls()).toBe(0);
  });
});
