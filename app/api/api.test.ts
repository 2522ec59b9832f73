/**
 * The console's API, route handlers called directly with `new Request(...)` against a fake hub
 * on 127.0.0.1 that records what reaches it. Covers the status mapping (README, "The console's
 * API") and the CSRF, input, session and fault rules (SECURITY.md).
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { stubEnv } from "@/tests/support/env";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { signedInCookie } from "@/tests/support/signed-in";
import { POLL_HEADER } from "@/lib/domain/query-keys";
import { forgetSharedReadsForTests } from "@/lib/server/hub/shared-reads";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { fakeLogPage, fakeWebhook, sendJson, type FakeUpstream } from "@/tests/support/fake-upstream";
import * as sessionRoute from "@/app/api/session/route";
import * as demoRoute from "@/app/api/session/demo/route";
import * as endRoute from "@/app/api/session/end/route";
import * as webhookRoute from "@/app/api/webhooks/[webhookId]/route";
import * as logsRoute from "@/app/api/webhooks/[webhookId]/logs/route";
import * as retryRoute from "@/app/api/webhooks/[webhookId]/logs/[logId]/retry/route";
import * as messagesRoute from "@/app/api/messages/[channelKind]/route";

const HOST = "console.test:3000";
const ORIGIN = `http://${HOST}`;
const KEY = "canary-key-7f3a9c2e5b1d4e6f8a0b";
const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
const LOG = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
const CHANNEL = "3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b";

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_TIMEOUT_MS: "800",
  HUB_SANDBOX: "",
});
let upstream: FakeUpstream;

beforeEach(() => {
  upstream = fake.current;
  signInLimiter.reset();
  upstream.handle = (_req, res) => sendJson(res, 200, fakeWebhook());
});

interface Init {
  body?: unknown;
  raw?: BodyInit;
  headers?: Record<string, string>;
  cookie?: string;
  signal?: AbortSignal;
}

function request(method: string, path: string, init: Init = {}): Request {
  const headers = new Headers({ host: HOST, ...init.headers });
  if (init.cookie) headers.set("cookie", init.cookie);
  let body: BodyInit | undefined = init.raw;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return new Request(`${ORIGIN}${path}`, { method, headers, body, signal: init.signal });
}

const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) });

/** The Cookie header a browser signed in with `key` sends back (the sign-in itself: app/api/session/). */
async function signIn(key = KEY): Promise<string> {
  return signedInCookie(key);
}

function clearsCookie(response: Response): boolean {
  const setCookie = response.headers.get("set-cookie") ?? "";
  return /^hub_console=;/.test(setCookie) && /Max-Age=0/.test(setCookie);
}

async function errorOf(response: Response) {
  const body = (await response.json()) as {
    error: { code: string; message: string; fields?: Record<string, string[]> };
  };
  expect(Object.keys(body)).toEqual(["error"]);
  return body.error;
}

describe("session routes", () => {
  it("signs in, never echoes the key, and sets an httpOnly SameSite=Lax cookie", async () => {
    const response = await sessionRoute.POST(request("POST", "/api/session", { body: { apiKey: KEY } }));
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(JSON.parse(text)).toEqual({ signedIn: true, keyHint: KEY.slice(-4) });
    expect(text).not.toContain(KEY);
    const setCookie = response.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^hub_console=Fe26\.2\*/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).toMatch(/Max-Age=28800/);
    expect(setCookie).not.toContain(KEY);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("reports the session and signs out with a cleared cookie", async () => {
    const cookie = await signIn();
    const who = await sessionRoute.GET(request("GET", "/api/session", { cookie }));
    expect(await who.json()).toEqual({ signedIn: true, keyHint: KEY.slice(-4) });
    expect(who.headers.get("cache-control")).toBe("no-store");

    const out = await sessionRoute.DELETE(
      request("DELETE", "/api/session", { cookie, headers: { origin: ORIGIN } }),
    );
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ signedIn: false, keyHint: null });
    expect(clearsCookie(out)).toBe(true);
  });

  it("answers signed out, and clears a cookie that no longer opens", async () => {
    const none = await sessionRoute.GET(request("GET", "/api/session"));
    expect(await none.json()).toEqual({ signedIn: false, keyHint: null });
    expect(none.headers.get("set-cookie")).toBeNull();

    const tampered = await sessionRoute.GET(
      request("GET", "/api/session", { cookie: "hub_console=Fe26.2*1*garbage" }),
    );
    expect(await tampered.json()).toEqual({ signedIn: false, keyHint: null });
    expect(clearsCookie(tampered)).toBe(true);
  });

  it("gives no hint for a key of 8 characters or fewer", async () => {
    const response = await sessionRoute.POST(
      request("POST", "/api/session", { body: { apiKey: "abcdefgh" } }),
    );
    expect(await response.json()).toEqual({ signedIn: true, keyHint: null });
  });

  it.each([
    ["missing", {}],
    ["empty", { apiKey: "" }],
    ["not a string", { apiKey: 12345678 }],
    ["inner whitespace", { apiKey: "abcd efgh ijkl" }],
    ["non-ASCII", { apiKey: "abcdéfghijkl" }],
    ["control character", { apiKey: "abcdefgh\u0000ijkl" }],
    ["too short", { apiKey: "abc" }],
    ["too long", { apiKey: "k".repeat(513) }],
    ["an extra field", { apiKey: KEY, admin: true }],
  ])("refuses a sign-in with %s (400, the key not echoed)", async (_name, body) => {
    const response = await sessionRoute.POST(request("POST", "/api/session", { body }));
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(JSON.parse(text).error.code).toBe("bad_request");
    expect(response.headers.get("set-cookie")).toBeNull();
    const apiKey = (body as { apiKey?: unknown }).apiKey;
    if (typeof apiKey === "string" && apiKey.length > 3) expect(text).not.toContain(apiKey);
  });

  it("trims whitespace pasted around the key", async () => {
    const response = await sessionRoute.POST(
      request("POST", "/api/session", { body: { apiKey: `  ${KEY}\n` } }),
    );
    expect(response.status).toBe(200);
  });

  it("refuses non-JSON (415), malformed JSON (400) and oversized bodies (413)", async () => {
    const form = await sessionRoute.POST(
      request("POST", "/api/session", {
        raw: `apiKey=${KEY}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
    );
    expect(form.status).toBe(415);
    const plain = await sessionRoute.POST(
      request("POST", "/api/session", {
        raw: JSON.stringify({ apiKey: KEY }),
        headers: { "content-type": "text/plain" },
      }),
    );
    expect(plain.status).toBe(415);
    const none = await sessionRoute.POST(
      request("POST", "/api/session", { raw: JSON.stringify({ apiKey: KEY }) }),
    );
    expect(none.status).toBe(415);
    const broken = await sessionRoute.POST(
      request("POST", "/api/session", { raw: "{", headers: { "content-type": "application/json" } }),
    );
    expect(broken.status).toBe(400);
    const huge = await sessionRoute.POST(
      request("POST", "/api/session", { body: { apiKey: KEY, pad: "x".repeat(40_000) } }),
    );
    expect(huge.status).toBe(413);
    expect((await errorOf(huge)).code).toBe("payload_too_large");
  });

  it("limits sign-ins per client address: 429 with Retry-After after 10 a minute", async () => {
    const from = (ip: string) =>
      request("POST", "/api/session", { body: { apiKey: KEY }, headers: { "x-forwarded-for": ip } });
    for (let i = 0; i < 10; i++) expect((await sessionRoute.POST(from("203.0.113.7"))).status).toBe(200);
    const limited = await sessionRoute.POST(from("203.0.113.7"));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect((await errorOf(limited)).code).toBe("rate_limited");
    // Another address is not affected.
    expect((await sessionRoute.POST(from("203.0.113.8"))).status).toBe(200);
  });
});

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

describe("GET /api/webhooks/{id}", () => {
  it("answers the webhook, unknown fields kept, with the key sent only upstream", async () => {
    const cookie = await signIn();
    const response = await webhookRoute.GET(
      request("GET", `/api/webhooks/${WEBHOOK}`, { cookie }),
      ctx({ webhookId: WEBHOOK }),
    );
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(JSON.parse(text)).toEqual(fakeWebhook());
    expect(text).not.toContain(KEY);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]!.url).toBe(`/v1/organization/webhook/${WEBHOOK}`);
    expect(upstream.requests[0]!.headers["x-api-key"]).toBe(KEY);
  });

  it("is 401 without a session, and nothing goes upstream", async () => {
    const response = await webhookRoute.GET(
      request("GET", `/api/webhooks/${WEBHOOK}`),
      ctx({ webhookId: WEBHOOK }),
    );
    expect(response.status).toBe(401);
    expect((await errorOf(response)).message).toMatch(/sign in/i);
    expect(upstream.requests).toHaveLength(0);
  });

  it("is 401 with an expired or tampered cookie, and clears it", async () => {
    const response = await webhookRoute.GET(
      request("GET", `/api/webhooks/${WEBHOOK}`, { cookie: "hub_console=not-a-seal" }),
      ctx({ webhookId: WEBHOOK }),
    );
    expect(response.status).toBe(401);
    expect(clearsCookie(response)).toBe(true);
    expect(upstream.requests).toHaveLength(0);
  });

  it.each([
    ["traversal", "../../admin"],
    ["encoded traversal", "..%2F..%2Fadmin"],
    ["encoded slash", `${WEBHOOK}%2Fwebhook-log`],
    ["a slash", `${WEBHOOK}/webhook-log`],
    ["a full URL", "https://evil.example/x"],
    ["a query", `${WEBHOOK}?limit=500`],
    ["not a UUID", "12345"],
    ["empty", ""],
    ["a UUID with spaces", ` ${WEBHOOK}`],
    ["a very long value", "a".repeat(5000)],
  ])("refuses a webhook id that is %s: 400, nothing upstream", async (_name, webhookId) => {
    const cookie = await signIn();
    const response = await webhookRoute.GET(
      request("GET", `/api/webhooks/x`, { cookie }),
      ctx({ webhookId }),
    );
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("bad_request");
    expect(error.fields?.webhookId).toBeDefined();
    expect(upstream.requests).toHaveLength(0);
  });

  it("checks the input before the session: a bad id without a session is 400", async () => {
    const response = await webhookRoute.GET(request("GET", `/api/webhooks/x`), ctx({ webhookId: "nope" }));
    expect(response.status).toBe(400);
  });
});

describe("GET /api/webhooks/{id}/logs", () => {
  it("answers { data, pagination } and passes offset, limit and status upstream", async () => {
    upstream.handle = (_req, res) => sendJson(res, 200, fakeLogPage());
    const cookie = await signIn();
    const response = await logsRoute.GET(
      request("GET", `/api/webhooks/${WEBHOOK}/logs?offset=40&limit=20&status=Failed`, { cookie }),
      ctx({ webhookId: WEBHOOK }),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual(fakeLogPage());
    expect(upstream.requests[0]!.url).toBe(
      `/v1/organization/webhook/${WEBHOOK}/webhook-log?offset=40&limit=20&status=Failed`,
    );
  });

  it("applies the spec's defaults (offset 0, limit 20)", async () => {
    upstream.handle = (_req, res) => sendJson(res, 200, fakeLogPage());
    const cookie = await signIn();
    await logsRoute.GET(
      request("GET", `/api/webhooks/${WEBHOOK}/logs`, { cookie }),
      ctx({ webhookId: WEBHOOK }),
    );
    expect(upstream.requests[0]!.url).toBe(
      `/v1/organization/webhook/${WEBHOOK}/webhook-log?offset=0&limit=20`,
    );
  });

  it.each([
    ["limit over 50", "limit=51", "limit"],
    ["limit 0", "limit=0", "limit"],
    ["negative limit", "limit=-1", "limit"],
    ["fractional limit", "limit=1.5", "limit"],
    ["non-numeric limit", "limit=abc", "limit"],
    ["infinite limit", "limit=1e999", "limit"],
    ["negative offset", "offset=-20", "offset"],
    ["huge offset", "offset=99999999999999999999", "offset"],
    ["unknown status", "status=Pending", "status"],
    ["lower-case status", "status=failed", "status"],
    ["a status that is a URL", "status=https%3A%2F%2Fevil.example", "status"],
    ["an unknown parameter", "apiKey=x", "apiKey"],
    ["a repeated parameter", "status=Failed&status=Success", "status"],
  ])("refuses %s: 400 naming the field, nothing upstream", async (_name, query, field) => {
    const cookie = await signIn();
    const response = await logsRoute.GET(
      request("GET", `/api/webhooks/${WEBHOOK}/logs?${query}`, { cookie }),
      ctx({ webhookId: WEBHOOK }),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.[field]).toBeDefined();
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("shared upstream reads through the routes", () => {
  beforeEach(() => forgetSharedReadsForTests());

  it("ten viewers asking for the same webhook at once cost at most two upstream calls", async () => {
    const cookie = await signIn();
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
    const cookie = await signIn();
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
    const cookie = await signIn();
    const other = await signIn("another-key-0123456789abcdef");
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
    const cookie = await signIn();
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

describe("upstream faults become the documented answers", () => {
  async function getWebhookWith(handle: FakeUpstream["handle"]) {
    upstream.handle = handle;
    const cookie = await signIn();
    const started = Date.now();
    const response = await webhookRoute.GET(
      request("GET", `/api/webhooks/${WEBHOOK}`, { cookie }),
      ctx({ webhookId: WEBHOOK }),
    );
    return { response, elapsed: Date.now() - started, error: await errorOf(response.clone()) };
  }

  it("upstream 401 → 401 and the session ends (cookie cleared)", async () => {
    const { response, error } = await getWebhookWith((_req, res) =>
      sendJson(res, 401, { message: "bad key" }),
    );
    expect(response.status).toBe(401);
    expect(error.code).toBe("unauthorized");
    expect(error.message).toMatch(/rejected your API key/);
    expect(clearsCookie(response)).toBe(true);
  });

  it("upstream 404 → 404 with what to check", async () => {
    const { response, error } = await getWebhookWith((_req, res) => sendJson(res, 404, {}));
    expect(response.status).toBe(404);
    expect(error.message).toContain(WEBHOOK);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("upstream 429 → 429 with its Retry-After", async () => {
    const { response, error } = await getWebhookWith((_req, res) =>
      sendJson(res, 429, {}, { "retry-after": "7" }),
    );
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("7");
    expect(error.message).toMatch(/7 s/);
  });

  it.each([500, 502, 503])("upstream %i → 502", async (status) => {
    const { response, error } = await getWebhookWith((_req, res) => sendJson(res, status, { error: "boom" }));
    expect(response.status).toBe(502);
    expect(error.code).toBe("upstream_error");
  });

  it("a non-JSON answer → 502", async () => {
    const { response, error } = await getWebhookWith((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>proxy error</html>");
    });
    expect(response.status).toBe(502);
    expect(error.message).toMatch(/not JSON/);
  });

  it("a schema-violating answer → 502 naming the field", async () => {
    const { response, error } = await getWebhookWith((_req, res) =>
      sendJson(res, 200, { ...fakeWebhook(), numberOfErrors: "many" }),
    );
    expect(response.status).toBe(502);
    expect(error.message).toMatch(/numberOfErrors/);
  });

  it("no answer → 504 within HUB_TIMEOUT_MS + 1 s", async () => {
    const { response, elapsed, error } = await getWebhookWith(() => {
      /* never answers */
    });
    expect(response.status).toBe(504);
    expect(error.code).toBe("upstream_timeout");
    expect(elapsed).toBeLessThan(800 + 1000);
    expect(elapsed).toBeGreaterThanOrEqual(700);
  });

  it("an unreachable hub → 502", async () => {
    stubEnv({ HUB_BASE_URL: "http://127.0.0.1:1" });
    const cookie = await signIn();
    const response = await webhookRoute.GET(
      request("GET", `/api/webhooks/${WEBHOOK}`, { cookie }),
      ctx({ webhookId: WEBHOOK }),
    );
    expect(response.status).toBe(502);
    expect((await errorOf(response)).code).toBe("upstream_unreachable");
  });

  it("a client that disconnects cancels the upstream call", async () => {
    upstream.handle = () => {
      /* hangs until the caller goes away */
    };
    const cookie = await signIn();
    const controller = new AbortController();
    const arrived = upstream.nextRequest();
    const pending = webhookRoute.GET(
      request("GET", `/api/webhooks/${WEBHOOK}`, { cookie, signal: controller.signal }),
      ctx({ webhookId: WEBHOOK }),
    );
    const recorded = await arrived;
    controller.abort();
    const response = await pending;
    expect(response.status).toBeLessThan(500);
    await vi.waitFor(() => expect(recorded.aborted).toBe(true), { timeout: 2000 });
  });

  it("no error answer carries the key, even when the hub echoes it", async () => {
    const { response } = await getWebhookWith((_req, res) =>
      sendJson(res, 400, { message: `key ${KEY} is odd` }),
    );
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(text).not.toContain(KEY);
  });
});

describe("POST /api/messages/{channelKind}", () => {
  const message = { from: CHANNEL, to: "5511999999999", content: { text: "hello" } };

  it("sends the message and answers 202 { messageId, answer }", async () => {
    upstream.handle = (_req, res) =>
      sendJson(res, 201, { messageId: "4f5a6b7c-8d9e-4f0a-8b1c-2d3e4f5a6b7c", status: "queued" });
    const cookie = await signIn();
    const response = await messagesRoute.POST(
      request("POST", "/api/messages/sms", {
        cookie,
        body: { ...message, extra: "dropped", content: { text: "hello", html: "<b>x</b>" } },
        headers: { origin: ORIGIN },
      }),
      ctx({ channelKind: "sms" }),
    );
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({
      messageId: "4f5a6b7c-8d9e-4f0a-8b1c-2d3e4f5a6b7c",
      answer: { messageId: "4f5a6b7c-8d9e-4f0a-8b1c-2d3e4f5a6b7c", status: "queued" },
    });
    const sent = upstream.requests[0]!;
    expect(sent.method).toBe("POST");
    expect(sent.url).toBe("/v1/communication/sms/message");
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(sent.body)).toEqual(message);
  });

  it("maps a 404 from the hub (channel of another application) to 404", async () => {
    upstream.handle = (_req, res) => sendJson(res, 404, {});
    const cookie = await signIn();
    const response = await messagesRoute.POST(
      request("POST", "/api/messages/sms", { cookie, body: message }),
      ctx({ channelKind: "sms" }),
    );
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).toContain(CHANNEL);
  });

  it.each([
    ["upper case", "SMS"],
    ["traversal", ".."],
    ["an encoded slash", "sms%2F..%2Fadmin"],
    ["a slash", "sms/../../v1"],
    ["a full URL", "https://evil.example"],
    ["too long", "a".repeat(33)],
    ["empty", ""],
    ["a leading digit", "1sms"],
  ])("refuses a channel kind that is %s: 400, nothing upstream", async (_name, channelKind) => {
    const cookie = await signIn();
    const response = await messagesRoute.POST(
      request("POST", "/api/messages/x", { cookie, body: message }),
      ctx({ channelKind }),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.channelKind).toBeDefined();
    expect(upstream.requests).toHaveLength(0);
  });

  it.each([
    ["from not a UUID", { ...message, from: "channel-1" }, "from"],
    ["to missing", { from: CHANNEL, content: { text: "x" } }, "to"],
    ["to blank", { ...message, to: "   " }, "to"],
    ["text missing", { ...message, content: {} }, "content.text"],
    ["text too long", { ...message, content: { text: "x".repeat(4097) } }, "content.text"],
  ])("refuses a body with %s: 400 naming the field, nothing upstream", async (_name, body, field) => {
    const cookie = await signIn();
    const response = await messagesRoute.POST(
      request("POST", "/api/messages/sms", { cookie, body }),
      ctx({ channelKind: "sms" }),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.[field]).toBeDefined();
    expect(upstream.requests).toHaveLength(0);
  });

  it("refuses other content types (415) and bodies over 32 KiB (413) before anything is sent", async () => {
    const cookie = await signIn();
    const plain = await messagesRoute.POST(
      request("POST", "/api/messages/sms", {
        cookie,
        raw: JSON.stringify(message),
        headers: { "content-type": "text/plain" },
      }),
      ctx({ channelKind: "sms" }),
    );
    expect(plain.status).toBe(415);
    const huge = await messagesRoute.POST(
      request("POST", "/api/messages/sms", { cookie, body: { ...message, pad: "x".repeat(33 * 1024) } }),
      ctx({ channelKind: "sms" }),
    );
    expect(huge.status).toBe(413);
    expect(upstream.requests).toHaveLength(0);
  });

  it("is 401 without a session, after checking the input", async () => {
    const response = await messagesRoute.POST(
      request("POST", "/api/messages/sms", { body: message }),
      ctx({ channelKind: "sms" }),
    );
    expect(response.status).toBe(401);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("POST /api/webhooks/{id}/logs/{logId}/retry", () => {
  it("answers 501 not_supported when signed in, sending nothing", async () => {
    const cookie = await signIn();
    const response = await retryRoute.POST(
      request("POST", "/x", { cookie }),
      ctx({ webhookId: WEBHOOK, logId: LOG }),
    );
    expect(response.status).toBe(501);
    const error = await errorOf(response);
    expect(error.code).toBe("not_supported");
    expect(error.message).toMatch(/does not offer retry yet/);
    expect(upstream.requests).toHaveLength(0);
  });

  it("is 401 without a session and 400 for bad ids", async () => {
    expect(
      (await retryRoute.POST(request("POST", "/x"), ctx({ webhookId: WEBHOOK, logId: LOG }))).status,
    ).toBe(401);
    const cookie = await signIn();
    const bad = await retryRoute.POST(
      request("POST", "/x", { cookie }),
      ctx({ webhookId: WEBHOOK, logId: "../x" }),
    );
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).fields?.logId).toBeDefined();
  });
});

describe("POST /api/session/demo", () => {
  it("is 404 outside sandbox mode, asking nothing of the hub", async () => {
    const response = await demoRoute.POST(request("POST", "/api/session/demo"));
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).toMatch(/sandbox/);
    expect(upstream.requests).toHaveLength(0);
  });

  it("in sandbox mode, signs in with the demo key fetched server-side (Bearer admin token)", async () => {
    stubEnv({ HUB_SANDBOX: "1", SANDBOX_ADMIN_TOKEN: "admin-token-123" });
    upstream.handle = (_req, res) =>
      sendJson(res, 200, { apiKey: KEY, applicationId: "a", channels: [], webhooks: [] });
    const response = await demoRoute.POST(
      request("POST", "/api/session/demo", { headers: { origin: ORIGIN } }),
    );
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(JSON.parse(text)).toEqual({ signedIn: true, keyHint: KEY.slice(-4) });
    expect(text).not.toContain(KEY);
    expect(upstream.requests[0]!.url).toBe("/_sandbox/demo");
    expect(upstream.requests[0]!.headers.authorization).toBe("Bearer admin-token-123");
    expect(upstream.requests[0]!.headers["x-api-key"]).toBeUndefined();

    const cookie = response.headers.get("set-cookie")!.split(";")[0]!;
    upstream.handle = (_req, res) => sendJson(res, 200, fakeWebhook());
    await webhookRoute.GET(
      request("GET", `/api/webhooks/${WEBHOOK}`, { cookie }),
      ctx({ webhookId: WEBHOOK }),
    );
    expect(upstream.requests[1]!.headers["x-api-key"]).toBe(KEY);
  });

  it("in sandbox mode, a refused admin token is a 502 that says what to set (not a sign-out)", async () => {
    stubEnv({ HUB_SANDBOX: "1" });
    upstream.handle = (_req, res) => sendJson(res, 401, {});
    const response = await demoRoute.POST(request("POST", "/api/session/demo"));
    expect(response.status).toBe(502);
    expect((await errorOf(response)).message).toMatch(/SANDBOX_ADMIN_TOKEN/);
  });
});

describe("GET /api/session/end", () => {
  it("clears the cookie and redirects (303) to /login?reason=…", async () => {
    const cookie = await signIn();
    const response = await endRoute.GET(
      request("GET", "/api/session/end?reason=key_rejected", {
        cookie,
        headers: { "sec-fetch-site": "same-origin" },
      }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/login?reason=key_rejected");
    expect(clearsCookie(response)).toBe(true);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("drops an unknown reason", async () => {
    const response = await endRoute.GET(request("GET", "/api/session/end?reason=%3Cscript%3E"));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/login");
  });

  it("refuses cross-site subresource calls, but serves a cross-site navigation", async () => {
    const image = await endRoute.GET(
      request("GET", "/api/session/end?reason=expired", {
        headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image" },
      }),
    );
    expect(image.status).toBe(403);
    expect(image.headers.get("set-cookie")).toBeNull();
    const navigation = await endRoute.GET(
      request("GET", "/api/session/end?reason=expired", {
        headers: {
          "sec-fetch-site": "cross-site",
          "sec-fetch-mode": "navigate",
          "sec-fetch-dest": "document",
        },
      }),
    );
    expect(navigation.status).toBe(303);
  });
});

describe("unexpected errors", () => {
  it("are a 500 with a reference, logged without the key", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const cookie = await signIn();
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

describe("unknown /api paths", () => {
  it("answer a JSON 404, also for state-changing methods (after the same-origin check)", async () => {
    const catchAll = await import("@/app/api/[...path]/route");
    const get = await catchAll.GET(request("GET", "/api/nope"), ctx({ path: "nope" }));
    expect(get.status).toBe(404);
    expect((await errorOf(get)).code).toBe("not_found");
    const crossSite = await catchAll.POST(
      request("POST", "/api/nope", { headers: { "sec-fetch-site": "cross-site" } }),
      ctx({ path: "nope" }),
    );
    expect(crossSite.status).toBe(403);
  });
});
