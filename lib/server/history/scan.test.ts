/**
 * The history scan against a fake hub on 127.0.0.1 holding a list of logs (newest first) that a
 * test can grow mid-scan, slow down or make fail.
 */
import { parseWebhookId } from "@/lib/server/hub/path-params";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { IncomingMessage, ServerResponse } from "node:http";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { sendJson, type FakeUpstream, type RecordedRequest } from "@/tests/support/fake-upstream";
import { appErrorOf } from "@/tests/support/app-error-of";
import { stubEnv } from "@/tests/support/env";
import { EMPTY_QUESTION, type HistoryQuestion } from "@/lib/domain/history/question";
import { resetServerConfigForTests } from "@/lib/server/config";
import {
  beginScan,
  findInHistory,
  resetHistoryForTests,
  scanHistory,
  streamMatches,
} from "@/lib/server/history/scan";

const WEBHOOK = parseWebhookId("0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d")!;
const KEY = "scan-test-key-0123456789abcdef";
const OTHER_KEY = "scan-test-key-fedcba9876543210";
const T0 = Date.parse("2025-03-01T12:00:00Z");

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_TIMEOUT_MS: "2000",
});

function uuid(n: number, prefix = "1"): string {
  const hex = n.toString(16).padStart(12, "0");
  return `${prefix.repeat(8)}-0000-4000-8000-${hex}`;
}

/** Log n: n-th oldest; one per minute, every 10th Failed with a 500. */
function makeLog(n: number) {
  const at = new Date(T0 + n * 60_000).toISOString();
  const failed = n % 10 === 0;
  return {
    id: uuid(n),
    webhookId: WEBHOOK,
    statusCode: failed ? 500 : 200,
    responseBody: failed ? `Internal error #${n}` : "OK",
    status: failed ? "Failed" : "Success",
    sendAt: at,
    createdDate: at,
    messageId: uuid(n, "2"),
    webhook: { id: WEBHOOK, endpoint: "https://example.test/hook", eventType: "Message" },
  };
}

type Log = ReturnType<typeof makeLog>;

/** A hub of `count` logs; `logs[0]` is the newest. */
class Hub {
  logs: Log[] = [];
  created = 0;
  delayMs = 0;
  /** Runs before a list request is answered; may answer itself (return true). */
  before: (req: RecordedRequest, res: ServerResponse, n: number) => boolean | Promise<boolean> = () => false;
  served = 0;

  constructor(count: number) {
    this.add(count);
  }

  add(count: number): void {
    const fresh: Log[] = [];
    for (let i = 0; i < count; i++) fresh.unshift(makeLog(this.created++));
    this.logs = [...fresh, ...this.logs];
  }

  handler = async (req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest) => {
    const url = new URL(recorded.url, "http://hub");
    const n = this.served++;
    if (await this.before(recorded, res, n)) return;
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (res.destroyed) return;
    const offset = Number(url.searchParams.get("offset") ?? 0);
    const limit = Number(url.searchParams.get("limit") ?? 20);
    const total = this.logs.length;
    sendJson(res, 200, {
      data: this.logs.slice(offset, offset + limit),
      pagination: { offset, limit, total, totalPages: Math.ceil(total / limit) },
    });
  };
}

let upstream: FakeUpstream;
const listCalls = () => upstream.requests.filter((r) => r.url.includes("/webhook-log")).length;

function install(hub: Hub): Hub {
  upstream.handle = hub.handler;
  return hub;
}

const call = (signal = new AbortController().signal, apiKey = KEY) => ({ apiKey, signal });
const all = { cap: 20_000, offset: 0, limit: 50 };
const q = (fields: Partial<HistoryQuestion> = {}): HistoryQuestion => ({ ...EMPTY_QUESTION, ...fields });

beforeEach(async () => {
  upstream = fake.current;
  // Calls a previous test aborted may still be arriving; let them land before counting.
  upstream.handle = (_req, res) => sendJson(res, 503, {});
  await new Promise((r) => setTimeout(r, 100));
  upstream.requests.length = 0;
  resetHistoryForTests();
  resetServerConfigForTests();
});
afterEach(() => resetServerConfigForTests());

describe("history scan", () => {
  it("reads every log once, newest first, 50 per call, at most 4 calls in flight", async () => {
    const hub = install(new Hub(1234));
    hub.delayMs = 20;
    let inFlight = 0;
    let most = 0;
    hub.before = async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      return false;
    };
    const result = await scanHistory(call(), WEBHOOK, q({ status: "Failed" }), all);
    expect(result.read).toBe(1234);
    expect(result.total).toBe(1234);
    expect(result.matches).toBe(124);
    expect(result.partial).toBeNull();
    expect(result.rows.map((l) => l.id)).toEqual(
      hub.logs
        .filter((l) => l.status === "Failed")
        .slice(0, 50)
        .map((l) => l.id),
    );
    expect(listCalls()).toBe(Math.ceil(1234 / 50));
    expect(most).toBe(4);
    expect(upstream.requests.every((r) => r.url.includes("limit=50"))).toBe(true);
    expect(result.summary.failuresByCode).toEqual([{ statusCode: 500, count: 124 }]);
  });

  it("de-duplicates and skips nothing while new deliveries arrive mid-scan, and says how many", async () => {
    const hub = install(new Hub(1000));
    const original = new Set(hub.logs.map((l) => l.id));
    hub.before = (_req, _res, n) => {
      if (n > 0 && n % 3 === 0) hub.add(7);
      return false;
    };
    const result = await scanHistory(call(), WEBHOOK, q(), { ...all, limit: 50 });
    expect(result.read).toBe(1000);
    expect(result.arrivedMeanwhile).toBe(hub.logs.length - 1000);
    expect(result.arrivedMeanwhile).toBeGreaterThan(0);
    // Every original log read exactly once, in order.
    const ids: string[] = [];
    const stream = await streamMatches(call(), WEBHOOK, q(), 20_000);
    for (let batch = await stream.next(); batch; batch = await stream.next())
      ids.push(...batch.map((l) => l.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => original.has(id))).toEqual([...original]);
  });

  it("stops a time range at the first page older than its start", async () => {
    install(new Hub(5000));
    const since = T0 + 4800 * 60_000;
    const result = await scanHistory(call(), WEBHOOK, q({ since }), all);
    expect(result.matches).toBe(200);
    expect(result.partial).toBeNull();
    expect(listCalls()).toBeLessThanOrEqual(Math.ceil(201 / 50) + 1 + 4);
  });

  it("stops a lookup once found", async () => {
    const hub = install(new Hub(5000));
    const target = hub.logs[1234]!;
    const found = await findInHistory(call(), WEBHOOK, { kind: "id", id: target.messageId }, 20_000);
    expect(found).toMatchObject({ found: true, position: 1234 });
    expect(found.found && found.log.id).toBe(target.id);
    expect(listCalls()).toBeLessThanOrEqual(Math.ceil(1235 / 50) + 4);
  });

  it("retries a 5xx with backoff, then goes on", async () => {
    const hub = install(new Hub(300));
    let failures = 0;
    hub.before = (req, res) => {
      if (req.url.includes("offset=100&") && failures < 2) {
        failures++;
        sendJson(res, 503, { error: "busy" });
        return true;
      }
      return false;
    };
    const result = await scanHistory(call(), WEBHOOK, q(), all);
    expect(failures).toBe(2);
    expect(result.read).toBe(300);
    expect(result.partial).toBeNull();
    expect(listCalls()).toBe(6 + 2);
  });

  it("returns what it has, marked partial with the reason, when the hub keeps failing", async () => {
    const hub = install(new Hub(300));
    hub.before = (req, res) => {
      if (req.url.includes("offset=150&")) {
        sendJson(res, 500, {});
        return true;
      }
      return false;
    };
    const result = await scanHistory(call(), WEBHOOK, q(), all);
    expect(result.read).toBe(150);
    expect(result.partial).toMatchObject({ reason: "failed", code: "upstream_error" });
    expect(result.partial?.message).toMatch(/stopped after 150 deliveries.*HTTP 500/);
    // 1 first attempt + 3 retries at offset 150.
    expect(upstream.requests.filter((r) => r.url.includes("offset=150&"))).toHaveLength(4);
  });

  it("honours Retry-After on a 429 and lowers its concurrency", async () => {
    const hub = install(new Hub(600));
    let limited = 0;
    let limitedAt = 0;
    const after: number[] = [];
    let inFlight = 0;
    let mostAfter = 0;
    hub.before = async (req, res) => {
      if (req.url.includes("offset=100&") && limited === 0) {
        limited++;
        limitedAt = Date.now();
        sendJson(res, 429, {}, { "retry-after": "1" });
        return true;
      }
      if (limitedAt) {
        after.push(Date.now() - limitedAt);
        mostAfter = Math.max(mostAfter, ++inFlight);
        await new Promise((r) => setTimeout(r, 15));
        inFlight--;
      }
      return false;
    };
    const result = await scanHistory(call(), WEBHOOK, q(), all);
    expect(result.partial).toBeNull();
    expect(result.read).toBe(600);
    // Calls sent after the 429 waited Retry-After (those already in flight are the exception).
    expect(after.filter((ms) => ms >= 950).length).toBeGreaterThanOrEqual(after.length - 3);
    expect(mostAfter).toBeLessThan(4);
  });

  it("a 429 that keeps coming becomes a partial result saying the hub is limiting", async () => {
    const hub = install(new Hub(300));
    hub.before = (req, res) => {
      if (!req.url.includes("offset=0&")) {
        sendJson(res, 429, {}, { "retry-after": "120" });
        return true;
      }
      return false;
    };
    const result = await scanHistory(call(), WEBHOOK, q(), all);
    expect(result.read).toBe(50);
    expect(result.partial).toMatchObject({ reason: "failed", code: "rate_limited" });
  });

  it("reads at most the cap, says so, and scans further when asked", async () => {
    install(new Hub(1000));
    const first = await scanHistory(call(), WEBHOOK, q(), { ...all, cap: 300 });
    expect(first.read).toBe(300);
    expect(first.partial).toMatchObject({ reason: "cap" });
    expect(first.partial?.message).toContain("newest 300 of 1,000");
    const callsBefore = listCalls();
    expect(callsBefore).toBeLessThanOrEqual(6 + 4);
    const further = await scanHistory(call(), WEBHOOK, q(), { ...all, cap: 1000 });
    expect(further.read).toBe(1000);
    expect(further.partial).toBeNull();
    // The window kept the first 300: one fresh first page, then only the pages past them.
    expect(listCalls() - callsBefore).toBeLessThanOrEqual(1 + 14 + 4);
  });

  it("the first page's error is thrown as it is (a rotated key's 401)", async () => {
    upstream.handle = (_req, res) => sendJson(res, 401, {});
    const error = await appErrorOf(() => scanHistory(call(), WEBHOOK, q(), all));
    expect(error.code).toBe("unauthorized");
  });

  it("identical scans at once share one set of upstream calls", async () => {
    const hub = install(new Hub(2000));
    hub.delayMs = 5;
    // Asked at the same moment: each answer's window ends at the time it was asked, which the
    // clock of a loaded machine can move between two calls.
    const now = Date.now();
    const [a, b] = await Promise.all([
      scanHistory(call(), WEBHOOK, q({ code: { kind: "class", hundreds: 5 } }), all, now),
      scanHistory(call(), WEBHOOK, q({ code: { kind: "class", hundreds: 5 } }), all, now),
    ]);
    expect(a.matches).toBe(200);
    expect(b).toEqual(a);
    expect(listCalls()).toBe(40);
  });

  it("different keys never share", async () => {
    install(new Hub(500));
    await Promise.all([
      scanHistory(call(), WEBHOOK, q(), all),
      scanHistory(call(undefined, OTHER_KEY), WEBHOOK, q(), all),
    ]);
    const keys = upstream.requests.map((r) => r.headers["x-api-key"]);
    expect(keys.filter((k) => k === KEY)).toHaveLength(10);
    expect(keys.filter((k) => k === OTHER_KEY)).toHaveLength(10);
    // And a cached window of one key is not another's.
    await scanHistory(call(undefined, OTHER_KEY), WEBHOOK, q(), all);
    expect(upstream.requests.filter((r) => r.headers["x-api-key"] === OTHER_KEY)).toHaveLength(11);
  });

  it("cancellation stops the upstream calls at once; shared, when the last listener leaves", async () => {
    const hub = install(new Hub(20_000));
    // Long enough that calls are on the wire at each cancel, even on a loaded machine.
    hub.delayMs = 300;
    const first = new AbortController();
    const second = new AbortController();
    const scanA = await beginScan(call(first.signal), WEBHOOK, q(), all);
    const scanB = await beginScan(call(second.signal), WEBHOOK, q(), all);
    const a = scanA.run();
    const b = scanB.run();
    await new Promise((r) => setTimeout(r, 700));
    first.abort();
    await a;
    const atFirstCancel = listCalls();
    await new Promise((r) => setTimeout(r, 700));
    expect(listCalls()).toBeGreaterThan(atFirstCancel); // the other listener still reads
    const sentBefore = listCalls();
    second.abort();
    await b;
    // Calls already on the wire may land a moment later; they are closed before their answer.
    await new Promise((r) => setTimeout(r, 100));
    const atLastCancel = listCalls();
    expect(upstream.requests.slice(sentBefore).every((r) => r.aborted)).toBe(true);
    expect(upstream.requests.filter((r) => r.aborted).length).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 400));
    expect(listCalls()).toBe(atLastCancel);
    expect(listCalls()).toBeLessThan(60);
  });

  it("a finished window is kept: the next question reads only a fresh first page, with what arrived since", async () => {
    const hub = install(new Hub(700));
    await scanHistory(call(), WEBHOOK, q(), all);
    expect(listCalls()).toBe(14);
    hub.add(3);
    const next = await scanHistory(call(), WEBHOOK, q({ status: "Failed" }), all);
    expect(listCalls()).toBe(15);
    expect(next.read).toBe(703);
    expect(next.total).toBe(703);
    expect(next.rows[0]?.id).toBe(hub.logs.find((l) => l.status === "Failed")?.id);
    // A rotated key gets its 401 from that fresh page.
    upstream.handle = (_req, res) => sendJson(res, 401, {});
    expect((await appErrorOf(() => scanHistory(call(), WEBHOOK, q(), all))).code).toBe("unauthorized");
  });

  it("a kept window expires after HISTORY_CACHE_SECONDS", async () => {
    stubEnv({ HUB_BASE_URL: upstream.url, HISTORY_CACHE_SECONDS: "1" });
    resetServerConfigForTests();
    install(new Hub(100));
    await scanHistory(call(), WEBHOOK, q(), all);
    await new Promise((r) => setTimeout(r, 1100));
    await scanHistory(call(), WEBHOOK, q(), all);
    expect(listCalls()).toBe(2 + 2);
  });

  it("HISTORY_SCAN_CONCURRENCY sets the calls in flight", async () => {
    stubEnv({ HUB_BASE_URL: upstream.url, HISTORY_SCAN_CONCURRENCY: "2" });
    resetServerConfigForTests();
    const hub = install(new Hub(500));
    let inFlight = 0;
    let most = 0;
    hub.before = async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 10));
      inFlight--;
      return false;
    };
    await scanHistory(call(), WEBHOOK, q(), all);
    expect(most).toBe(2);
  });

  it("follows the failing streak past the time range to the success that ended it", async () => {
    const hub = install(new Hub(300));
    // The newest 120 logs (minutes 180..299) failed, with a 503 or no connection; 179 succeeded.
    hub.logs.forEach((log, i) => {
      if (i < 120) Object.assign(log, { status: "Failed", statusCode: i % 4 === 0 ? 0 : 503 });
      else if (i === 120) Object.assign(log, { status: "Success", statusCode: 200 });
    });
    const since = T0 + 270 * 60_000;
    const health = await scanHistory(call(), WEBHOOK, q({ since }), { ...all, followStreak: true });
    // The window's own figures stay the window's: its 30 attempts, all failed.
    expect(health.summary).toMatchObject({ attempts: 30, failed: 30 });
    expect(health.partial).toBeNull();
    expect(health.summary.failingStreak).toEqual({
      since: hub.logs[119]!.sendAt,
      length: 120,
      atLeast: false,
      codes: [
        { statusCode: 503, count: 90 },
        { statusCode: 0, count: 30 },
      ],
    });
    // Without following, the streak stops at the range's start and says it goes on.
    const inRange = await scanHistory(call(), WEBHOOK, q({ since }), all);
    expect(inRange.summary.failingStreak).toMatchObject({ length: 30, atLeast: true });
  });

  it("a streak longer than the cap is 'at least', from the oldest failure read", async () => {
    const hub = install(new Hub(300));
    hub.logs.forEach((log) => Object.assign(log, { status: "Failed", statusCode: 500 }));
    const since = T0 + 270 * 60_000;
    const capped = await scanHistory(call(), WEBHOOK, q({ since }), { ...all, cap: 100, followStreak: true });
    expect(capped.summary.failingStreak).toMatchObject({
      since: hub.logs[99]!.sendAt,
      length: 100,
      atLeast: true,
    });
    // Read to the first delivery ever: the streak began there.
    const whole = await scanHistory(call(), WEBHOOK, q({ since }), { ...all, followStreak: true });
    expect(whole.summary.failingStreak).toMatchObject({
      since: hub.logs[299]!.sendAt,
      length: 300,
      atLeast: false,
    });
  });

  it("a request cancelled while it shares a refresh is no error for the others", async () => {
    const hub = install(new Hub(100));
    await scanHistory(call(), WEBHOOK, q(), all);
    const before = listCalls();
    hub.delayMs = 300;
    const leaving = new AbortController();
    const a = scanHistory(call(leaving.signal), WEBHOOK, q(), all);
    const b = scanHistory(call(), WEBHOOK, q({ status: "Failed" }), all);
    await new Promise((r) => setTimeout(r, 50));
    leaving.abort();
    expect((await appErrorOf(() => a)).message).toContain("cancelled");
    expect(await b).toMatchObject({ read: 100, matches: 10, partial: null });
    // One refresh call served both, and was not cut short by the one that left.
    expect(listCalls() - before).toBe(1);
    expect(upstream.requests.at(-1)?.aborted).toBe(false);
  });

  it("a shared refresh is cancelled when every request waiting for it has left", async () => {
    const hub = install(new Hub(100));
    await scanHistory(call(), WEBHOOK, q(), all);
    hub.delayMs = 300;
    const first = new AbortController();
    const second = new AbortController();
    const a = scanHistory(call(first.signal), WEBHOOK, q(), all);
    const b = scanHistory(call(second.signal), WEBHOOK, q(), all);
    await new Promise((r) => setTimeout(r, 50));
    first.abort();
    second.abort();
    await Promise.allSettled([a, b]);
    await new Promise((r) => setTimeout(r, 100));
    expect(upstream.requests.at(-1)?.aborted).toBe(true);
  });

  it("an export stream keeps only what it has not written: no window is kept after it", async () => {
    install(new Hub(400));
    const stream = await streamMatches(call(), WEBHOOK, q({ status: "Failed" }), 20_000);
    let rows = 0;
    for (let batch = await stream.next(); batch; batch = await stream.next()) rows += batch.length;
    expect(rows).toBe(40);
    const before = listCalls();
    await scanHistory(call(), WEBHOOK, q(), all);
    expect(listCalls() - before).toBe(8);
  });
});
