/**
 * The history routes, handlers called directly with `new Request(...)` against a fake hub that
 * serves a list of logs: NDJSON scan and health, find, export, and the 400s that send nothing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { ORIGIN, request, signedInCookie, WEBHOOK } from "@/tests/support/route-requests";
import { sendJson, servesLogs, type FakeUpstream } from "@/tests/support/fake-upstream";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { closeSharedStore } from "@/lib/server/store/context";
import * as scanRoute from "@/app/api/webhooks/[webhookId]/history/route";
import * as healthRoute from "@/app/api/webhooks/[webhookId]/history/health/route";
import * as findRoute from "@/app/api/webhooks/[webhookId]/history/find/route";
import * as exportRoute from "@/app/api/webhooks/[webhookId]/history/export/route";

const KEY = "history-route-key-0123456789ab";
const NOW = Date.now();

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_TIMEOUT_MS: "2000",
  HUB_SANDBOX: "",
  // Nothing is watched: every question here is scanned (watched-history.test.ts: the store's answers).
  WATCH_DB: ":memory:",
  WATCH_IN_CONSOLE: "0",
});
let upstream: FakeUpstream;

const id = (n: number, p = "1") => `${p.repeat(8)}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

/** 300 logs, one a minute up to now, newest first; every 3rd a 500 whose body starts with "=". */
const LOGS = Array.from({ length: 300 }, (_, i) => {
  const at = new Date(NOW - i * 60_000).toISOString();
  const failed = i % 3 === 0;
  return {
    id: id(i),
    webhookId: WEBHOOK,
    statusCode: failed ? 500 : 200,
    responseBody: failed ? `=cmd|' /C calc'!A0, error ${i}` : '{"ok":true}',
    status: failed ? "Failed" : "Success",
    sendAt: at,
    createdDate: at,
    messageId: id(i, "2"),
    webhook: { id: WEBHOOK, endpoint: "https://example.test/hook", eventType: "Message" },
  };
});

beforeEach(async () => {
  upstream = fake.current;
  signInLimiter.reset();
  await closeSharedStore();
  upstream.requests.length = 0;
  upstream.handle = servesLogs(LOGS);
});

const ctx = { params: Promise.resolve({ webhookId: WEBHOOK }) };

/** Signed in, with the hub's record of requests cleared so a test counts only its own. */
async function signIn(): Promise<string> {
  const cookie = await signedInCookie(KEY);
  upstream.requests.length = 0;
  return cookie;
}

function get(path: string, cookie?: string): Request {
  return request("GET", `/api/webhooks/${WEBHOOK}/history${path}`, { cookie });
}

async function lines(response: Response): Promise<Array<Record<string, unknown>>> {
  return (await response.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("GET …/history (scan)", () => {
  it("streams NDJSON: a result with the page of matches, their count, health, partial and arrivals", async () => {
    const cookie = await signIn();
    const response = await scanRoute.GET(get("?status=Failed&code=5xx&limit=10&offset=10", cookie), ctx);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/x-ndjson");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const all = await lines(response);
    const result = all.at(-1)!;
    expect(all.slice(0, -1).every((line) => line.type === "progress")).toBe(true);
    expect(result).toMatchObject({
      type: "result",
      read: 300,
      total: 300,
      matches: 100,
      offset: 10,
      limit: 10,
      partial: null,
      arrivedMeanwhile: 0,
    });
    expect((result.rows as Array<{ id: string }>).map((r) => r.id)).toEqual(
      LOGS.filter((l) => l.status === "Failed")
        .slice(10, 20)
        .map((l) => l.id),
    );
    expect(result.summary).toMatchObject({ attempts: 100, failed: 100, successRate: 0 });
  });

  it.each([
    ["?status=Pending", "status"],
    ["?code=600", "code"],
    ["?code=1xx", "code"],
    ["?since=yesterday", "since"],
    [`?since=${new Date(NOW).toISOString()}&until=${new Date(NOW - 1000).toISOString()}`, "since"],
    [`?contains=${"a".repeat(201)}`, "contains"],
    ["?cap=1000000", "cap"],
    ["?limit=51", "limit"],
    ["?page=2", "page"],
  ])("%s is a 400 naming %s, and nothing is sent upstream", async (query, field) => {
    const cookie = await signIn();
    const response = await scanRoute.GET(get(query, cookie), ctx);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; fields: Record<string, string[]> } };
    expect(body.error.code).toBe("bad_request");
    expect(Object.keys(body.error.fields)).toEqual([field]);
    expect(upstream.requests).toHaveLength(0);
  });

  it("without a session: 401, nothing upstream", async () => {
    const response = await scanRoute.GET(get(""), ctx);
    expect(response.status).toBe(401);
    expect(upstream.requests).toHaveLength(0);
  });

  it("the hub's 404 for the first page is an ordinary 404 answer", async () => {
    const cookie = await signIn();
    upstream.handle = (_req, res) => sendJson(res, 404, {});
    const response = await scanRoute.GET(get("", cookie), ctx);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(WEBHOOK);
  });

  it("cap bounds how far back the copy is read (to the page), and says the result is partial", async () => {
    const cookie = await signIn();
    const result = (await lines(await scanRoute.GET(get("?cap=120", cookie), ctx))).at(-1)!;
    expect(result).toMatchObject({
      cap: 120,
      partial: { reason: "cap", message: expect.stringMatching(/Scan further/) },
    });
    expect(result.read).toBeGreaterThanOrEqual(120);
    expect(result.read).toBeLessThan(120 + 50);
  });
});

describe("a cancelled scan", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ["scan", scanRoute.GET, ""],
    ["health", healthRoute.GET, "/health?window=1h"],
    ["find", findRoute.GET, `/find?q=${id(9999)}`],
    ["export", exportRoute.GET, "/export?format=csv"],
  ])("%s: is no error, neither a 400 nor an error line in the log", async (_name, route, path) => {
    const cookie = await signIn();
    const serve = upstream.handle;
    // The hub is slow: the browser cancels before its first page is in.
    upstream.handle = async (req, res, recorded) => {
      await new Promise((r) => setTimeout(r, 300));
      if (!res.destroyed) await serve(req, res, recorded);
    };
    const logged: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((line) => logged.push(String(line)) > 0);
    const errors = vi.spyOn(console, "error");
    const cancel = new AbortController();
    const request = new Request(get(path, cookie), { signal: cancel.signal });
    setTimeout(() => cancel.abort(), 50);
    const response = await route(request, ctx);
    expect(response.status).toBe(499);
    expect(errors).not.toHaveBeenCalled();
    const line = JSON.parse(logged.find((text) => text.includes('"client abort"'))!) as { status: number };
    expect(line.status).toBe(499);
    // The upstream call was closed, not answered.
    await new Promise((r) => setTimeout(r, 50));
    expect(upstream.requests.every((r) => r.aborted)).toBe(true);
  });
});

describe("GET …/history/health", () => {
  it("summarises the last hour (early stop at its start)", async () => {
    const cookie = await signIn();
    const result = (await lines(await healthRoute.GET(get("/health?window=1h", cookie), ctx))).at(-1)!;
    expect(result).toMatchObject({ type: "result", window: "1h", partial: null });
    const summary = result.summary as {
      attempts: number;
      failingStreak: unknown;
      lastFailure: { logId: string };
    };
    expect(summary.attempts).toBeGreaterThanOrEqual(59);
    expect(summary.attempts).toBeLessThanOrEqual(61);
    expect(summary.lastFailure.logId).toBe(LOGS[0]!.id);
    expect(summary.failingStreak).toMatchObject({ length: 1 });
    expect(upstream.requests.length).toBeLessThanOrEqual(2 + 4);
  });

  it("refuses another window", async () => {
    const cookie = await signIn();
    const response = await healthRoute.GET(get("/health?window=2d", cookie), ctx);
    expect(response.status).toBe(400);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("GET …/history/find", () => {
  it("finds a delivery by message ID and by console link", async () => {
    const cookie = await signIn();
    const byMessage = await findRoute.GET(get(`/find?q=${LOGS[123]!.messageId}`, cookie), ctx);
    expect(byMessage.status).toBe(200);
    expect(await byMessage.json()).toMatchObject({ log: { id: LOGS[123]!.id }, position: 123, total: 300 });
    const link = encodeURIComponent(`${ORIGIN}/webhooks/${WEBHOOK}?status=Failed&log=${LOGS[250]!.id}`);
    const byLink = await findRoute.GET(get(`/find?q=${link}`, cookie), ctx);
    expect(await byLink.json()).toMatchObject({ log: { id: LOGS[250]!.id }, position: 250 });
  });

  it("404 says how far it looked: within the cap, then, asked further, the whole history", async () => {
    const cookie = await signIn();
    const capped = await findRoute.GET(get(`/find?q=${id(9999)}&cap=100`, cookie), ctx);
    expect(capped.status).toBe(404);
    expect(((await capped.json()) as { error: { message: string } }).error.message).toMatch(
      /newest 1\d\d of 300.*Scan further/,
    );
    const response = await findRoute.GET(get(`/find?q=${id(9999)}`, cookie), ctx);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /No delivery with log or message ID .* in the 300 deliveries of this webhook/,
    );
  });

  it.each([
    ["/find", "q"],
    ["/find?q=hello", "q"],
    [`/find?q=${encodeURIComponent(`/webhooks/${WEBHOOK}`)}`, "q"],
    [`/find?q=${encodeURIComponent(`/webhooks/${id(1, "3")}?log=${id(1)}`)}`, "q"],
  ])("%s is a 400 naming %s, nothing upstream", async (path, field) => {
    const cookie = await signIn();
    const response = await findRoute.GET(get(path, cookie), ctx);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { fields: Record<string, string[]> } };
    expect(Object.keys(body.error.fields)).toEqual([field]);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("GET …/history/export", () => {
  it("CSV: every matched row, formula cells neutralised, named after the webhook and range", async () => {
    const cookie = await signIn();
    const since = new Date(NOW - 100 * 60_000 - 30_000).toISOString();
    const response = await exportRoute.GET(
      get(`/export?format=csv&status=Failed&since=${since}`, cookie),
      ctx,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const disposition = response.headers.get("content-disposition")!;
    expect(disposition).toMatch(
      new RegExp(
        `^attachment; filename="webhook-${WEBHOOK}-deliveries-\\d{8}T\\d{6}Z-to-\\d{8}T\\d{6}Z\\.csv"$`,
      ),
    );
    const text = await response.text();
    const rows = text.trim().split("\r\n");
    expect(rows[0]).toBe(
      "id,webhookId,statusCode,responseBody,status,sendAt,createdDate,messageId,webhook.id,webhook.endpoint,webhook.eventType",
    );
    expect(rows).toHaveLength(1 + 34);
    expect(rows[1]).toContain(`"'=cmd|' /C calc'!A0, error 0"`);
    // The time range stopped the scan: 101 logs are within it, so 3 pages at most (+ look-ahead).
    expect(upstream.requests.length).toBeLessThanOrEqual(3 + 4);
  });

  it("JSON: an array of the spec's fields", async () => {
    const cookie = await signIn();
    const response = await exportRoute.GET(get("/export?format=json&code=500", cookie), ctx);
    expect(response.headers.get("content-disposition")).toMatch(/deliveries-start-to-\d{8}T\d{6}Z\.json"$/);
    const rows = (await response.json()) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(100);
    expect(Object.keys(rows[0]!)).toEqual([
      "id",
      "webhookId",
      "statusCode",
      "responseBody",
      "status",
      "sendAt",
      "createdDate",
      "messageId",
      "webhook",
    ]);
    const none = await exportRoute.GET(get("/export?format=json&contains=nothing-like-this", cookie), ctx);
    expect(await none.json()).toEqual([]);
  });

  describe("for a customer", () => {
    const endpoint = "https://ops:hunter2@customer.test/hook?token=tok-endpoint&shop=shop-name";
    const body = `{"error":"denied","db_password":"pw-in-body","card":"4111 1111 1111 1111","echo":"${KEY}"}`;
    const secrets = ["hunter2", "tok-endpoint", "shop-name", "pw-in-body", "4111 1111 1111 1111", KEY];
    beforeEach(() => {
      upstream.handle = servesLogs(
        LOGS.slice(0, 5).map((log) => ({
          ...log,
          responseBody: body,
          webhook: { ...log.webhook, endpoint },
        })),
      );
    });

    it.each(["csv", "json"])(
      "%s: every row redacted, the session's key too, and the file says so",
      async (format) => {
        const cookie = await signIn();
        const response = await exportRoute.GET(get(`/export?format=${format}&for=customer`, cookie), ctx);
        expect(response.status).toBe(200);
        expect(response.headers.get("content-disposition")).toMatch(new RegExp(`-redacted\\.${format}"$`));
        const text = await response.text();
        for (const secret of secrets) expect(text).not.toContain(secret);
        expect(text).toContain("https://[redacted]@customer.test/hook?token=[redacted]&shop=[redacted]");
        expect(text.match(/db_password/g)).toHaveLength(5);
      },
    );

    it("the team's own export keeps what the hub answered", async () => {
      const cookie = await signIn();
      const text = await (await exportRoute.GET(get("/export?format=json", cookie), ctx)).text();
      for (const secret of secrets) expect(text).toContain(secret);
    });

    it("refuses any other audience, naming the field, and reads nothing", async () => {
      const cookie = await signIn();
      const response = await exportRoute.GET(get("/export?format=csv&for=partner", cookie), ctx);
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain("for: write customer for a redacted file");
      expect(upstream.requests).toHaveLength(0);
    });
  });

  it("needs a format", async () => {
    const cookie = await signIn();
    const response = await exportRoute.GET(get("/export", cookie), ctx);
    expect(response.status).toBe(400);
    expect(upstream.requests).toHaveLength(0);
  });
});
