/**
 * The history routes over the console's copy of a webhook's history (the one engine): a watched
 * webhook answers from the watcher's copy with no hub call; any other webhook's first question
 * copies what it needs, and later questions read only what is new. Handlers called directly,
 * against a fake hub that counts its calls and an in-memory store.
 */
import { addWatches } from "@/lib/server/watch/watches";
import { listIssues } from "@/lib/server/watch/failure-issues";
import { beforeEach, describe, expect, it } from "vitest";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { HistorySource } from "@/lib/domain/history/answer-source";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { applicationId } from "@/lib/server/session/key-hash";
import { claimDue, finishPoll, writeLogs } from "@/lib/server/watch/cursor";
import { closeSharedStore, sharedStoreContext } from "@/lib/server/store/context";
import { sendJson } from "@/tests/support/fake-upstream";
import { request, signedInCookie, WEBHOOK } from "@/tests/support/route-requests";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import * as scanRoute from "@/app/api/webhooks/[webhookId]/history/route";
import * as healthRoute from "@/app/api/webhooks/[webhookId]/history/health/route";
import * as findRoute from "@/app/api/webhooks/[webhookId]/history/find/route";
import * as exportRoute from "@/app/api/webhooks/[webhookId]/history/export/route";

/** The key of the application that watches WEBHOOK, one of another application, one the hub refuses. */
const KEY = "watched-history-key-0123456789ab";
const OTHER_KEY = "unwatched-history-key-0123456789";
const REFUSED_KEY = "refused-history-key-0123456789ab";
const UNWATCHED = "7d3c1b2a-9e8f-4a6b-8c5d-4e3f2a1b0c9d";
const HOUR = 3_600_000;
const NOW = Date.now();
const ENDPOINT = "https://example.test/hook";

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_TIMEOUT_MS: "2000",
  HUB_SANDBOX: "",
  WATCH_DB: ":memory:",
  WATCH_IN_CONSOLE: "0",
  WATCH_INTERVAL_SECONDS: "60",
  HISTORY_SCAN_CONCURRENCY: "4",
});

const id = (n: number, p = "1") => `${p.repeat(8)}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

/** `count` logs of `webhookId`, one a minute up to `newest`, newest first: the newest 12 failing, a mix before. */
function logsOf(webhookId: string, count: number, prefix: string, newest = NOW - 30_000): WebhookLog[] {
  return Array.from({ length: count }, (_, i) => {
    const at = newest - i * 60_000;
    const failed = i < 12 || i % 7 === 0;
    const statusCode = failed ? (i % 2 === 0 ? 500 : 0) : 200;
    return {
      id: id(i, prefix),
      webhookId,
      statusCode,
      responseBody: failed ? `=upstream error ${statusCode} #${i}` : '{"ok":true}',
      status: failed ? "Failed" : "Success",
      sendAt: new Date(at).toISOString(),
      createdDate: new Date(at + 3).toISOString(),
      messageId: id(i, "2"),
      webhook: { id: webhookId, endpoint: ENDPOINT, eventType: "Message" },
    };
  });
}

const LOGS = logsOf(WEBHOOK, 300, "1");
/** The hub's logs of each webhook, newest first (a test may add newer ones). */
let hubLogs: Map<string, WebhookLog[]>;

const params = (webhookId: string) => ({ params: Promise.resolve({ webhookId }) });
const logCalls = () => fake.current.requests.filter((r) => r.url.includes("/webhook-log")).length;

/** The hub: each webhook's logs paged as the spec says; REFUSED_KEY gets 401. */
function serveHub() {
  fake.current.handle = (req, res) => {
    if (req.headers["x-api-key"] === REFUSED_KEY) return sendJson(res, 401, {});
    const url = new URL(req.url ?? "", "http://hub");
    const logs = hubLogs.get(url.pathname.split("/")[4] ?? "");
    if (!logs) return sendJson(res, 404, {});
    const offset = Number(url.searchParams.get("offset"));
    const limit = Number(url.searchParams.get("limit"));
    sendJson(res, 200, {
      data: logs.slice(offset, offset + limit),
      pagination: { offset, limit, total: logs.length, totalPages: Math.ceil(logs.length / limit) },
    });
  };
}

/** When the watcher last polled WEBHOOK. */
let polledAt: number;

/** WEBHOOK watched under KEY's application, its 300 logs copied by a poll just now. */
async function watch(): Promise<void> {
  const store = await sharedStoreContext();
  const webhook = { id: WEBHOOK, endpoint: ENDPOINT, eventType: "Message", numberOfErrors: 5, active: true };
  await addWatches(store, applicationId(KEY), KEY, [{ webhook, name: "Acme" }]);
  polledAt = Date.now();
  await claimDue(store, "test", 10, 60_000, polledAt + 1);
  const cursor = {
    head_id: LOGS[0]!.id,
    tail_offset: null,
    history_complete: 1,
    complete_from: null,
    hub_total: 300,
  };
  await writeLogs(store, "test", WEBHOOK, LOGS, cursor, 60_000, polledAt + 1);
  await finishPoll(store, "test", WEBHOOK, { nextPollAt: polledAt + HOUR, error: null }, polledAt);
}

/** Makes a webhook's copy `ms` older, as if time had passed since it was last read. */
async function age(webhookId: string, ms: number): Promise<void> {
  const store = await sharedStoreContext();
  await store.db
    .updateTable("watch_state")
    .set((eb) => ({ copied_at: eb("copied_at", "-", ms) }))
    .where("webhook_id", "=", webhookId)
    .execute();
  await store.db
    .updateTable("log_copies")
    .set((eb) => ({ used_at: eb("used_at", "-", ms) }))
    .where("webhook_id", "=", webhookId)
    .execute();
}

beforeEach(async () => {
  signInLimiter.reset();
  await closeSharedStore();
  hubLogs = new Map([
    [WEBHOOK, [...LOGS]],
    [UNWATCHED, logsOf(UNWATCHED, 1000, "4")],
  ]);
  serveHub();
  await watch();
  fake.current.requests.length = 0;
});

function get(path: string, cookie: string, webhookId = WEBHOOK): Request {
  return request("GET", `/api/webhooks/${webhookId}/history${path}`, { cookie });
}

async function lines(response: Response): Promise<Array<Record<string, unknown>>> {
  expect(response.status).toBe(200);
  return (await response.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
const resultOf = async (response: Response) => (await lines(response)).at(-1)!;

const watchedSource = (): HistorySource => ({
  asOf: new Date(polledAt).toISOString(),
  watched: true,
  logs: 300,
  complete: true,
  cutBodies: 0,
});

describe("a watched webhook's history", () => {
  it.each([
    ["health of the last hour", healthRoute.GET, "/health?window=1h"],
    ["failed 5xx, a later page", scanRoute.GET, "?status=Failed&code=5xx&offset=5&limit=10"],
    [
      "a time range and response text",
      scanRoute.GET,
      `?since=${new Date(NOW - 3 * HOUR).toISOString()}&until=${new Date(NOW - HOUR).toISOString()}&contains=ERROR%200`,
    ],
  ])("%s: from the watch's copy, with no hub call, saying what it covers", async (_name, route, path) => {
    const result = await resultOf(await route(get(path, await signedInCookie(KEY)), params(WEBHOOK)));
    expect(logCalls()).toBe(0);
    expect(result.source).toEqual(watchedSource());
    expect(result.matches).toBeGreaterThan(0);
    expect(result.partial).toBeNull();
  });

  it("answers the same rows a reading of the hub would", async () => {
    const since = NOW - 3 * HOUR;
    const result = await resultOf(
      await scanRoute.GET(
        get(`?since=${new Date(since).toISOString()}&contains=ERROR%200&limit=50`, await signedInCookie(KEY)),
        params(WEBHOOK),
      ),
    );
    const expected = LOGS.filter(
      (log) => Date.parse(log.sendAt) >= since && log.responseBody.includes("error 0"),
    );
    expect((result.rows as WebhookLog[]).map((row) => row.id)).toEqual(expected.map((log) => log.id));
    expect(result.matches).toBe(expected.length);
  });

  it("Find (and so a ?log= link): from the copy; a miss reads the hub's newest page once, then says it looked through every delivery", async () => {
    const cookie = await signedInCookie(KEY);
    const found = await findRoute.GET(get(`/find?q=${LOGS[250]!.messageId}`, cookie), params(WEBHOOK));
    expect(await found.json()).toMatchObject({
      log: { id: LOGS[250]!.id },
      position: 250,
      total: 300,
      source: watchedSource(),
    });
    const missing = await findRoute.GET(get(`/find?q=${id(9999)}`, cookie), params(WEBHOOK));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(
      /No delivery with log or message ID .* in the 300 deliveries of this webhook/,
    );
    // The delivery may be newer than the watcher's last poll: the newest page is read, once.
    expect(logCalls()).toBe(1);
  });

  it("export: the file from the copy, saying what it covered", async () => {
    const response = await exportRoute.GET(
      get("/export?format=csv&status=Failed&code=500", await signedInCookie(KEY)),
      params(WEBHOOK),
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(response.headers.get("x-history-source")!)).toEqual(watchedSource());
    const rows = (await response.text()).trim().split("\r\n");
    expect(rows).toHaveLength(1 + LOGS.filter((log) => log.statusCode === 500).length);
    expect(logCalls()).toBe(0);
  });

  it("another application's key reads the hub's newest page first; a key the hub refuses reads nothing", async () => {
    const other = await resultOf(
      await healthRoute.GET(get("/health?window=1h", await signedInCookie(OTHER_KEY)), params(WEBHOOK)),
    );
    expect(logCalls()).toBe(1);
    expect(other.summary).toMatchObject({ lastFailure: { logId: LOGS[0]!.id } });
    fake.current.requests.length = 0;
    for (const [route, path] of [
      [healthRoute.GET, "/health?window=1h"],
      [scanRoute.GET, "?status=Failed"],
      [findRoute.GET, `/find?q=${LOGS[3]!.id}`],
      [exportRoute.GET, "/export?format=json"],
    ] as const) {
      const refused = await route(get(path, await signedInCookie(REFUSED_KEY)), params(WEBHOOK));
      expect(refused.status).toBe(401);
      expect(await refused.text()).not.toContain(LOGS[3]!.id);
    }
  });

  it("a copy older than a few polls is brought up to date first: one call for the newest page", async () => {
    const newer = logsOf(WEBHOOK, 3, "5", NOW + 3 * 60_000);
    hubLogs.set(WEBHOOK, [...newer, ...LOGS]);
    await age(WEBHOOK, 10 * 60_000);
    const asked = Date.now();
    const result = await resultOf(
      await scanRoute.GET(get("?limit=5", await signedInCookie(KEY)), params(WEBHOOK)),
    );
    expect(logCalls()).toBe(1);
    expect((result.rows as WebhookLog[]).slice(0, 3).map((row) => row.id)).toEqual(
      newer.map((log) => log.id),
    );
    expect(result.source).toMatchObject({ logs: 303 });
    expect(Date.parse((result.source as HistorySource).asOf)).toBeGreaterThanOrEqual(asked);
  });

  it("a question reaching back past what the copy holds reads the older pages it lacks, once", async () => {
    const store = await sharedStoreContext();
    const from = Date.parse(LOGS[99]!.createdDate);
    await store.db.deleteFrom("watch_logs").where("created_at", "<", from).execute();
    await store.db.updateTable("watch_state").set({ history_complete: 0, complete_from: from }).execute();
    const cookie = await signedInCookie(KEY);
    const recent = await resultOf(
      await scanRoute.GET(
        get(`?status=Failed&since=${new Date(from).toISOString()}`, cookie),
        params(WEBHOOK),
      ),
    );
    expect(logCalls()).toBe(0);
    expect(recent.source).toMatchObject({ logs: 100, complete: false });
    const whole = await resultOf(
      await scanRoute.GET(get("?status=Failed&limit=50", cookie), params(WEBHOOK)),
    );
    // The newest page proves the key, then the pages below the 100 copied: 200 logs, 4 pages.
    expect(logCalls()).toBeGreaterThanOrEqual(1 + 4);
    expect(logCalls()).toBeLessThanOrEqual(1 + 4 + 4);
    expect(whole.source).toMatchObject({ logs: 300, complete: true });
    expect(whole.matches).toBe(LOGS.filter((log) => log.status === "Failed").length);
    fake.current.requests.length = 0;
    await resultOf(await scanRoute.GET(get("?status=Failed&limit=50", cookie), params(WEBHOOK)));
    expect(logCalls()).toBe(0);
  });

  it("a failure issue's deliveries: its failures only, with no hub call", async () => {
    const store = await sharedStoreContext();
    const issues = await listIssues(store, [applicationId(KEY)], { webhookId: WEBHOOK });
    const issue = issues.find((candidate) => candidate.statusCode === 500)!;
    const own = LOGS.filter((log) => log.status === "Failed" && log.statusCode === 500);
    const path = `?status=Failed&issue=${issue.id.toUpperCase()}&limit=50`;
    const result = await resultOf(await scanRoute.GET(get(path, await signedInCookie(KEY)), params(WEBHOOK)));
    expect(logCalls()).toBe(0);
    expect(result.matches).toBe(own.length);
    expect((result.rows as WebhookLog[]).map((row) => row.id)).toEqual(own.map((log) => log.id));
  });

  it("an issue that is not an ID, not this webhook's, or not this application's is refused, naming the field", async () => {
    const store = await sharedStoreContext();
    const [issue] = await listIssues(store, [applicationId(KEY)], { webhookId: WEBHOOK });
    const watching = await signedInCookie(KEY);
    const asked = [
      [watching, "?issue=500"],
      [watching, `?issue=${id(999, "3")}`],
      [await signedInCookie(OTHER_KEY), `?issue=${issue!.id}`],
      [watching, `/export?format=csv&issue=${id(999, "3")}`],
    ] as const;
    for (const [cookie, path] of asked) {
      const route = path.startsWith("/export") ? exportRoute.GET : scanRoute.GET;
      const response = await route(get(path, cookie), params(WEBHOOK));
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
        /Failure issue: /,
      );
    }
    expect(logCalls()).toBe(0);
  });
});

describe("an unwatched webhook's history", () => {
  const unwatched = (path: string, cookie: string) => get(path, cookie, UNWATCHED);

  it("the first question copies what it needs, with progress; the next reads only the newest page", async () => {
    const cookie = await signedInCookie(KEY);
    const first = await lines(
      await healthRoute.GET(unwatched("/health?window=24h", cookie), params(UNWATCHED)),
    );
    const result = first.at(-1)!;
    // 24 h of a log a minute: 1,000 logs in all, every one of them within the window.
    expect(result.source).toMatchObject({ watched: false, logs: 1000, complete: true, cutBodies: 0 });
    expect(result.summary).toMatchObject({ attempts: 1000 });
    expect(logCalls()).toBeGreaterThanOrEqual(20);
    expect(logCalls()).toBeLessThanOrEqual(21 + 4);
    expect(first.some((line) => line.type === "progress")).toBe(true);

    await age(UNWATCHED, 60_000);
    fake.current.requests.length = 0;
    const again = await resultOf(await scanRoute.GET(unwatched("?status=Failed", cookie), params(UNWATCHED)));
    expect(logCalls()).toBe(1);
    expect(again.source).toMatchObject({ watched: false, logs: 1000 });

    const newer = logsOf(UNWATCHED, 60, "6", NOW + 60 * 60_000);
    hubLogs.set(UNWATCHED, [...newer, ...hubLogs.get(UNWATCHED)!]);
    await age(UNWATCHED, 60_000);
    fake.current.requests.length = 0;
    const later = await resultOf(await scanRoute.GET(unwatched("?limit=1", cookie), params(UNWATCHED)));
    // 60 new logs: two pages, and the second meets the newest one copied.
    expect(logCalls()).toBe(2);
    expect(later.source).toMatchObject({ logs: 1060 });
    expect((later.rows as WebhookLog[])[0]!.id).toBe(newer[0]!.id);
  });

  it("a 429 on some pages slows the copy down and never becomes an error: the answer is whole", async () => {
    // Three older pages (the pages overlap by one log) are refused once, Retry-After 1 s.
    const limitedOnce = new Set(["99", "299", "499"]);
    const answer = fake.current.handle;
    fake.current.handle = (req, res, recorded) => {
      const offset = new URL(req.url ?? "", "http://hub").searchParams.get("offset") ?? "";
      if (!limitedOnce.delete(offset)) return answer(req, res, recorded);
      sendJson(res, 429, {}, { "retry-after": "1" });
    };
    const answered = await lines(
      await healthRoute.GET(unwatched("/health?window=24h", await signedInCookie(KEY)), params(UNWATCHED)),
    );
    expect(limitedOnce.size).toBe(0);
    expect(answered.filter((line) => line.type === "error")).toEqual([]);
    const result = answered.at(-1)!;
    expect(result.source).toMatchObject({ watched: false, logs: 1000, complete: true });
    expect(result.summary).toMatchObject({ attempts: 1000 });
    expect(result.partial).toBeNull();
  });

  it("identical questions asked at once share one reading", async () => {
    const cookie = await signedInCookie(KEY);
    const answers = await Promise.all(
      Array.from({ length: 3 }, () =>
        scanRoute.GET(unwatched("?status=Failed", cookie), params(UNWATCHED)).then(resultOf),
      ),
    );
    const pages = fake.current.requests
      .filter((r) => r.url.includes("/webhook-log"))
      .map((r) => new URL(r.url, "http://hub").searchParams.get("offset"));
    // The newest page once per question at most (it proves the key), and every older page once.
    expect(pages.filter((offset) => offset === "0").length).toBeLessThanOrEqual(3);
    const older = pages.filter((offset) => offset !== "0");
    expect(new Set(older).size).toBe(older.length);
    expect(older.length).toBeLessThanOrEqual(20 + 4);
    expect(new Set(answers.map((answer) => answer.matches))).toEqual(new Set([answers[0]!.matches]));
  });

  it("is not another application's to read without the hub's word, and a key the hub refuses reads nothing", async () => {
    await resultOf(await scanRoute.GET(unwatched("", await signedInCookie(KEY)), params(UNWATCHED)));
    fake.current.requests.length = 0;
    const refused = await scanRoute.GET(
      unwatched("?status=Failed", await signedInCookie(REFUSED_KEY)),
      params(UNWATCHED),
    );
    expect(refused.status).toBe(401);
    const other = await resultOf(
      await scanRoute.GET(unwatched("?limit=1", await signedInCookie(OTHER_KEY)), params(UNWATCHED)),
    );
    expect(logCalls()).toBe(2);
    expect(other.source).toMatchObject({ watched: false, logs: 1000 });
    // The copy is now the other application's: the first one's key must prove itself again.
    const store = await sharedStoreContext();
    const owner = await store.db
      .selectFrom("log_copies")
      .select("app_id")
      .where("webhook_id", "=", UNWATCHED)
      .executeTakeFirst();
    expect(owner?.app_id).toBe(applicationId(OTHER_KEY));
  });
});
