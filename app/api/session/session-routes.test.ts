/**
 * The session routes, called directly with `new Request(...)` against a fake hub: sign-in (the
 * cookie's flags, the key never echoed, bad input, the sign-in limit), who is signed in, sign-out,
 * the sandbox's demo sign-in, and the end-of-session redirect.
 */
import { describe, expect, it } from "vitest";
import { stubEnv } from "@/tests/support/env";
import { fakeWebhook, sendJson } from "@/tests/support/fake-upstream";
import {
  clearsCookie,
  ctx,
  errorOf,
  fakeHubForRoutes,
  KEY,
  ORIGIN,
  request,
  signedInCookie,
  WEBHOOK,
} from "@/tests/support/route-requests";
import * as sessionRoute from "@/app/api/session/route";
import * as demoRoute from "@/app/api/session/demo/route";
import * as endRoute from "@/app/api/session/end/route";
import * as webhookRoute from "@/app/api/webhooks/[webhookId]/route";

const upstream = fakeHubForRoutes();

describe("session routes", () => {
  it("signs in, never echoes the key, and sets an httpOnly SameSite=Lax cookie", async () => {
    const response = await sessionRoute.POST(request("POST", "/api/session", { body: { apiKey: KEY } }));
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(JSON.parse(text)).toEqual({ signedIn: true, keyHint: KEY.slice(-4), handOver: [] });
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
    const cookie = await signedInCookie();
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
    expect(await response.json()).toEqual({ signedIn: true, keyHint: null, handOver: [] });
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
    const cookie = await signedInCookie();
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
