/**
 * Rules every route handler keeps, checked across the routes against a fake hub: cross-site
 * state-changing requests are refused (SECURITY.md), identical upstream reads are shared, one log
 * line and an X-Request-Id per request, and an unexpected error is a 500 that names no key.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { stubEnv } from "@/tests/support/env";
import { fakeLogPage, fakeWebhook, sendJson } from "@/tests/support/fake-upstream";
import {
  CHANNEL,
  ctx,
  errorOf,
  fakeHubForRoutes,
  HOST,
  KEY,
  LOG,
  ORIGIN,
  request,
  signedInCookie,
  WEBHOOK,
} from "@/tests/support/route-requests";
import { POLL_HEADER } from "@/lib/domain/query-keys";
import { forgetSharedReadsForTests } from "@/lib/server/hub/shared-reads";
import * as sessionRoute from "@/app/api/session/route";
import * as demoRoute from "@/app/api/session/demo/route";
import * as webhookRoute from "@/app/api/webhooks/[webhookId]/route";
import * as logsRoute from "@/app/api/webhooks/[webhookId]/logs/route";
import * as retryRoute from "@/app/api/webhooks/[webhookId]/logs/[logId]/retry/route";
import * as messagesRoute from "@/app/api/messages/[channelKind]/route";

const upstream = fakeHubForRoutes();

describe("CSRF: state-changing routes refuse cross-site requests with 403", () => {
  const routes: [string, () => (r: Request) => Promise<Response>][] = [
    ["POST /api/session", () => (r) => sessionRoute.POST(r)],
    ["DELETE /api/session", () => (r) => sessionRoute.DELETE(r)],
    ["POST /api/session/demo", () => (r) => demoRoute.POST(r)],
    ["POST /api/messages/sms", () => (r) => messagesRoute.POST(r, ctx({ channelKind: "sms" }))],
    ["POST retry", () => (r) => retryRoute.POST(r, ctx({ webhookId: WEBHOOK, logId: LOG }))],
  ];
  const attacks: [string, Record<string, string>][] = [
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site", origin: ORIGIN }],
    ["Sec-Fetch-Site: same-site", { "sec-fetch-site": "same-site" }],
    ["Origin: null", { origin: "null" }],
    ["a foreign Origin", { origin: "https://evil.example" }],
    ["a look-alike Origin", { origin: `http://console.test.evil.com:3000` }],
    ["a look-alike Origin with our host as a prefix", { origin: `http://${HOST}.evil.com` }],
    ["our host on another port", { origin: "http://console.test:3001" }],
    ["an Origin with a path", { origin: `${ORIGIN}/x` }],
    ["a foreign Referer and no Origin", { referer: "https://evil.example/page" }],
  ];
  for (const [route, handler] of routes) {
    it.each(attacks)(`${route} refuses %s`, async (_name, headers) => {
      const response = await handler()(
        request(route.split(" ")[0]!, "/api/x", {
          body: { apiKey: KEY, from: CHANNEL, to: "1", content: { text: "t" } },
          headers,
        }),
      );
      expect(response.status).toBe(403);
      expect((await errorOf(response)).code).toBe("forbidden");
      expect(upstream.requests).toHaveLength(0);
      expect(response.headers.get("set-cookie")).toBeNull();
    });
  }

  it("accepts our own Origin, Sec-Fetch-Site: same-origin, and non-browser clients", async () => {
    const allowed: Record<string, string>[] = [
      { origin: ORIGIN, "sec-fetch-site": "same-origin" },
      { "sec-fetch-site": "same-origin" },
      {},
      { referer: `${ORIGIN}/login` },
    ];
    for (const headers of allowed) {
      const response = await sessionRoute.POST(
        request("POST", "/api/session", { body: { apiKey: KEY }, headers }),
      );
      expect(response.status).toBe(200);
    }
  });

  it("uses X-Forwarded-Host/-Proto only with TRUST_PROXY=1", async () => {
    const behindProxy = {
      host: "10.0.0.5:3000",
      "x-forwarded-host": "console.example.com",
      "x-forwarded-proto": "https",
      origin: "https://console.example.com",
    };
    expect(
      (
        await sessionRoute.POST(
          request("POST", "/api/session", { body: { apiKey: KEY }, headers: behindProxy }),
        )
      ).status,
    ).toBe(403);
    stubEnv({ TRUST_PROXY: "1" });
    expect(
      (
        await sessionRoute.POST(
          request("POST", "/api/session", { body: { apiKey: KEY }, headers: behindProxy }),
        )
      ).status,
    ).toBe(200);
    const downgraded = { ...behindProxy, origin: "http://console.example.com" };
    expect(
      (
        await sessionRoute.POST(
          request("POST", "/api/session", { body: { apiKey: KEY }, headers: downgraded }),
        )
      ).status,
    ).toBe(403);
  });

  it("with PUBLIC_ORIGIN, accepts exactly the listed origins", async () => {
    stubEnv({ PUBLIC_ORIGIN: "https://console.example.com" });
    const post = (origin: string) =>
      sessionRoute.POST(request("POST", "/api/session", { body: { apiKey: KEY }, headers: { origin } }));
    expect((await post("https://console.example.com")).status).toBe(200);
    expect((await post(ORIGIN)).status).toBe(403);
    expect((await post("http://console.example.com")).status).toBe(403);
  });
});

describe("shared upstream reads through the routes", () => {
  beforeEach(() => forgetSharedReadsForTests());

  it("ten viewers asking for the same webhook at once cost at most two upstream calls", async () => {
    const cookie = await signedInCookie();
    upstream.handle = (_req, res) => void setTimeout(() => sendJson(res, 200, fakeWebhook()), 50);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        webhookRoute.GET(request("GET", `/api/webhooks/${WEBHOOK}`, { cookie }), ctx({ webhookId: WEBHOOK })),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 200));
    for (const answer of answers) expect(await answer.json()).toEqual(fakeWebhook());
    expect(upstream.requests.length).toBeLessThanOrEqual(2);
  });

  it(`an auto-refresh poll (${POLL_HEADER}: 1) of the logs reuses a fresh read; a person's request asks again`, async () => {
    const cookie = await signedInCookie();
    upstream.handle = (_req, res) => sendJson(res, 200, fakeLogPage());
    const path = `/api/webhooks/${WEBHOOK}/logs?status=Failed`;
    const get = (headers: Record<string, string> = {}) =>
      logsRoute.GET(request("GET", path, { cookie, headers }), ctx({ webhookId: WEBHOOK }));
    expect((await get()).status).toBe(200);
    const polled = await get({ [POLL_HEADER]: "1" });
    expect(await polled.json()).toEqual(fakeLogPage());
    expect(upstream.requests).toHaveLength(1);
    expect((await get()).status).toBe(200);
    expect(upstream.requests).toHaveLength(2);
  });

  it("a poll of the webhook reuses a fresh read, but not one of another key", async () => {
    const cookie = await signedInCookie();
    const other = await signedInCookie("another-key-0123456789abcdef");
    const get = (cookie: string) =>
      webhookRoute.GET(
        request("GET", `/api/webhooks/${WEBHOOK}`, { cookie, headers: { [POLL_HEADER]: "1" } }),
        ctx({ webhookId: WEBHOOK }),
      );
    await get(cookie);
    await get(cookie);
    await get(other);
    expect(upstream.requests.map((r) => r.headers["x-api-key"])).toEqual([
      KEY,
      "another-key-0123456789abcdef",
    ]);
  });
});

describe("request log and X-Request-Id", () => {
  it("logs one JSON line per request (route pattern, status, duration, upstream status, request id), never the key or the cookie", async () => {
    const cookie = await signedInCookie();
    upstream.handle = (_req, res) => sendJson(res, 200, fakeLogPage());
    const logs = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      const response = await logsRoute.GET(
        request("GET", `/api/webhooks/${WEBHOOK}/logs?limit=5`, { cookie }),
        ctx({ webhookId: WEBHOOK }),
      );
      upstream.handle = (_req, res) => sendJson(res, 401, {});
      const rejected = await webhookRoute.GET(
        request("GET", `/api/webhooks/${WEBHOOK}`, {
          cookie,
          headers: { "x-request-id": "lb-trace.42:a_b-c" },
        }),
        ctx({ webhookId: WEBHOOK }),
      );
      expect(logs).toHaveBeenCalledTimes(2);
      const lines = logs.mock.calls.map((call) => String(call[0]));
      const [first, second] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(first).toMatchObject({
        method: "GET",
        route: "/api/webhooks/[webhookId]/logs",
        status: 200,
        upstreamStatus: 200,
        upstreamShared: false,
        requestId: response.headers.get("x-request-id"),
      });
      expect(typeof first!.durationMs).toBe("number");
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(second).toMatchObject({
        route: "/api/webhooks/[webhookId]",
        status: 401,
        upstreamStatus: 401,
        requestId: "lb-trace.42:a_b-c",
      });
      expect(rejected.headers.get("x-request-id")).toBe("lb-trace.42:a_b-c");
      const cookieValue = cookie.split("=")[1]!;
      for (const line of lines) {
        expect(line).not.toContain(KEY);
        expect(line).not.toContain(cookieValue);
      }
    } finally {
      logs.mockRestore();
    }
  });

  it("replaces an incoming X-Request-Id that is not a plain token, and logs requests that never reach the hub", async () => {
    const logs = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      const response = await webhookRoute.GET(
        request("GET", `/api/webhooks/not-a-uuid`, { headers: { "x-request-id": 'bad id {"x":1}' } }),
        ctx({ webhookId: "not-a-uuid" }),
      );
      expect(response.status).toBe(400);
      const id = response.headers.get("x-request-id");
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const line = JSON.parse(String(logs.mock.calls[0]![0])) as Record<string, unknown>;
      expect(line).toMatchObject({ route: "/api/webhooks/[webhookId]", status: 400, requestId: id });
      expect(line).not.toHaveProperty("upstreamStatus");
    } finally {
      logs.mockRestore();
    }
  });
});

describe("unexpected errors", () => {
  it("are a 500 with a reference, logged without the key", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const cookie = await signedInCookie();
    // A request whose URL cannot be read makes the query parsing throw something that is not an AppError.
    const broken = new Request(`${ORIGIN}/api/webhooks/${WEBHOOK}`, { headers: { host: HOST, cookie } });
    Object.defineProperty(broken, "url", {
      get: () => {
        throw new Error(`boom with ${KEY}`);
      },
    });
    const response = await logsRoute.GET(broken, ctx({ webhookId: WEBHOOK }));
    expect(response.status).toBe(500);
    const error = await errorOf(response);
    expect(error.code).toBe("internal");
    expect(error.message).not.toContain(KEY);
    const logged = errors.mock.calls.map((c) => c.join(" ")).join("\n");
    expect(logged).toContain("unexpected error");
    expect(logged).not.toContain(KEY);
    errors.mockRestore();
  });
});
