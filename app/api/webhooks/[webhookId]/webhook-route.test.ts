/**
 * GET /api/webhooks/{id}, called directly against a fake hub: the answer, the session and input
 * checks before anything goes upstream, and every upstream fault mapped to its documented answer
 * (docs/api.md).
 */
import { describe, expect, it, vi } from "vitest";
import { stubEnv } from "@/tests/support/env";
import { fakeWebhook, sendJson, type FakeUpstream } from "@/tests/support/fake-upstream";
import {
  clearsCookie,
  ctx,
  errorOf,
  fakeHubForRoutes,
  KEY,
  request,
  signedInCookie,
  WEBHOOK,
} from "@/tests/support/route-requests";
import * as webhookRoute from "@/app/api/webhooks/[webhookId]/route";

const upstream = fakeHubForRoutes();

describe("GET /api/webhooks/{id}", () => {
  it("answers the webhook, unknown fields kept, with the key sent only upstream", async () => {
    const cookie = await signedInCookie();
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
    ["a very long value", "a".repeat(5000)],
  ])("refuses a webhook id that is %s: 400, nothing upstream", async (_name, webhookId) => {
    const cookie = await signedInCookie();
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

describe("upstream faults become the documented answers", () => {
  async function getWebhookWith(handle: FakeUpstream["handle"]) {
    upstream.handle = handle;
    const cookie = await signedInCookie();
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
    const cookie = await signedInCookie();
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
    const cookie = await signedInCookie();
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
