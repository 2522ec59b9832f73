/** The `/_sandbox/*` admin routes: the guard, key rotation, creating and changing things. */
import http, { type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookSchema } from "../../lib/domain/hub-schemas";
import { requireAdmin } from "../../lib/sandbox/auth";
import { isLoopbackAddress } from "../../lib/domain/loopback-address";
import { HttpError } from "../../lib/sandbox/http";
import { requestJson, type CreatedApplication } from "./support/clients";
import { startTestSandbox, type TestSandbox } from "./support/sandbox";

const fakeRequest = (remoteAddress: string, authorization?: string) =>
  ({
    socket: { remoteAddress },
    headers: authorization ? { authorization } : {},
  }) as unknown as IncomingMessage;

function guardError(run: () => void): HttpError | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

describe("the admin guard without SANDBOX_ADMIN_TOKEN: loopback callers only", () => {
  it.each(["127.0.0.1", "::1", "::ffff:127.0.0.1", "127.0.0.2"])("%s may call", (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
    expect(guardError(() => requireAdmin(fakeRequest(address), undefined))).toBeUndefined();
  });

  it.each(["10.0.0.5", "192.168.1.20", "::ffff:10.1.2.3", "fe80::1"])(
    "%s gets 403 admin_loopback_only",
    (address) => {
      const error = guardError(() => requireAdmin(fakeRequest(address), undefined));
      expect(error?.status).toBe(403);
      expect(error?.code).toBe("admin_loopback_only");
      expect(error?.message).toContain("SANDBOX_ADMIN_TOKEN");
    },
  );
});

describe("the admin guard with SANDBOX_ADMIN_TOKEN", () => {
  let t: TestSandbox;
  const token = "test-admin-token-0123456789";

  beforeAll(async () => {
    t = await startTestSandbox({ adminToken: token });
  });
  afterAll(() => t.sandbox.close({ graceMs: 0 }));

  it("a loopback caller without the token gets 401 admin_token_required", async () => {
    const answer = await requestJson(`${t.sandbox.url}/_sandbox/applications`, {
      method: "POST",
      body: { name: "x" },
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: { code: "admin_token_required" } });
    expect(answer.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("a wrong token gets 401 invalid_admin_token", async () => {
    const answer = await requestJson(`${t.sandbox.url}/_sandbox/stats`, {
      headers: { authorization: `Bearer ${token}x` },
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: { code: "invalid_admin_token" } });
  });

  it("the right token works", async () => {
    const app = await t.admin.createApplication("with token");
    expect(app.apiKey).toMatch(/^mh_sbx_/);
  });

  it("a non-loopback caller with the right token may call", () => {
    expect(guardError(() => requireAdmin(fakeRequest("10.0.0.5", `Bearer ${token}`), token))).toBeUndefined();
  });

  it("health and the receivers stay open", async () => {
    expect((await requestJson(`${t.sandbox.url}/_sandbox/health`)).body).toEqual({ ok: true });
    const receiver = await requestJson(`${t.sandbox.url}/_sandbox/receivers/ok`, {
      method: "POST",
      body: {},
    });
    expect(receiver.status).toBe(200);
  });
});

describe("admin routes", () => {
  let t: TestSandbox;

  beforeAll(async () => {
    t = await startTestSandbox();
  });
  afterAll(() => t.sandbox.close({ graceMs: 0 }));

  it("rotating a key makes the old one 401 at once and the new one work", async () => {
    const app = await t.admin.application();
    const webhook = await t.admin.createWebhook(app.id, { endpoint: "http://127.0.0.1:1/x", active: false });
    expect((await t.api(app.apiKey).getWebhook(webhook.id)).status).toBe(200);
    const { apiKey } = await t.admin.rotateKey(app.id);
    expect(apiKey).not.toBe(app.apiKey);
    const old = await t.api(app.apiKey).getWebhook(webhook.id);
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ error: { code: "invalid_api_key" } });
    expect((await t.api(apiKey).getWebhook(webhook.id)).status).toBe(200);
  });

  it("creating a webhook returns it with its secret; the list has it too", async () => {
    const app = await t.admin.application();
    const webhook = await t.admin.createWebhook(app.id, {
      endpoint: "https://hooks.example.com/in",
      active: false,
    });
    expect(webhookSchema.parse(webhook)).toMatchObject({
      active: false,
      eventType: "Message",
      numberOfErrors: 0,
    });
    expect(webhook.secret).toMatch(/^whsec_/);
    const list = await t.admin.listWebhooks(app.id);
    expect(list.data.map((w) => w.id)).toEqual([webhook.id]);
  });

  it("PATCH changes active and endpoint", async () => {
    const app = await t.admin.application();
    const webhook = await t.admin.createWebhook(app.id, { endpoint: "https://a.example.com/", active: true });
    const patched = await t.admin.patchWebhook(webhook.id, {
      active: false,
      endpoint: "https://b.example.com/",
    });
    expect(patched).toMatchObject({ id: webhook.id, active: false, endpoint: "https://b.example.com/" });
    const seen = await t.api(app.apiKey).getWebhook(webhook.id);
    expect(seen.body).toMatchObject({ active: false, endpoint: "https://b.example.com/" });
  });

  it.each([
    ["POST", "/_sandbox/applications", {}, "invalid_application"],
    ["POST", "/_sandbox/applications", { name: "x", extra: 1 }, "invalid_application"],
    ["POST", "/_sandbox/applications/not-a-uuid/channels", { kind: "sms" }, "invalid_application_id"],
  ] as const)("%s %s with %j is 400 %s", async (method, path, body, code) => {
    const answer = await requestJson(`${t.sandbox.url}${path}`, { method, body });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code } });
  });

  it("bodies are validated with field errors", async () => {
    const app = await t.admin.createApplication();
    const bad = [
      [`/_sandbox/applications/${app.id}/channels`, { kind: "Not A Kind" }, "invalid_channel"],
      [`/_sandbox/applications/${app.id}/webhooks`, { endpoint: "ftp://x" }, "invalid_webhook"],
      [
        `/_sandbox/applications/${app.id}/webhooks`,
        { endpoint: "https://x.example", active: "yes" },
        "invalid_webhook",
      ],
    ] as const;
    for (const [path, body, code] of bad) {
      const answer = await requestJson(`${t.sandbox.url}${path}`, { method: "POST", body });
      expect(answer.status, path).toBe(400);
      expect(answer.body).toMatchObject({ error: { code, issues: expect.any(Array) } });
    }
    const webhook = await t.admin.createWebhook(app.id, { endpoint: "https://x.example" });
    const empty = await requestJson(`${t.sandbox.url}/_sandbox/webhooks/${webhook.id}`, {
      method: "PATCH",
      body: {},
    });
    expect(empty.status).toBe(400);
    expect((empty.body as { error: { message: string } }).error.message).toContain(
      "give active, endpoint or both",
    );
  });

  it("an unknown application or webhook is 404", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    const rotate = await requestJson(`${t.sandbox.url}/_sandbox/applications/${unknown}/api-key`, {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    expect(rotate.status).toBe(404);
    expect(rotate.body).toMatchObject({ error: { code: "application_not_found" } });
    const patch = await requestJson(`${t.sandbox.url}/_sandbox/webhooks/${unknown}`, {
      method: "PATCH",
      body: { active: true },
    });
    expect(patch.status).toBe(404);
  });

  it("/_sandbox/demo is 404 demo_not_seeded when started with SANDBOX_SEED=none", async () => {
    const answer = await requestJson(`${t.sandbox.url}/_sandbox/demo`);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { code: "demo_not_seeded" } });
  });
});

describe("admin routes refuse cross-site and non-JSON requests that change something", () => {
  let t: TestSandbox;
  let app: CreatedApplication;
  let webhookId: string;

  beforeAll(async () => {
    t = await startTestSandbox();
    app = await t.admin.createApplication("csrf target");
    webhookId = (await t.admin.createWebhook(app.id, { endpoint: "https://a.example.com/", active: true }))
      .id;
    await requestJson(`${t.sandbox.url}/_sandbox/inbox/slack`, { method: "POST", body: { text: "kept" } });
  });
  afterAll(() => t.sandbox.close({ graceMs: 0 }));

  /** Sent as given (node:http): the browser-set headers a test of CSRF needs, unchanged. */
  function send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<{ status: number; body: { error?: { code: string; message: string } } }> {
    return new Promise((resolve, reject) => {
      const outgoing = http.request(`${t.sandbox.url}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString() || "{}"),
          }),
        );
      });
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  }

  /** Everything the routes below could change. */
  async function state() {
    const [stats, faults, webhooks, inbox, key] = await Promise.all([
      requestJson<{ applications: number }>(`${t.sandbox.url}/_sandbox/stats`),
      requestJson(`${t.sandbox.url}/_sandbox/faults`),
      t.admin.listWebhooks(app.id),
      requestJson<{ items: unknown[] }>(`${t.sandbox.url}/_sandbox/inbox`),
      t.api(app.apiKey).getWebhook(webhookId),
    ]);
    return {
      applications: stats.body.applications,
      faults: faults.body,
      webhooks: webhooks.data,
      inbox: inbox.body.items.length,
      keyWorks: key.status,
    };
  }

  const routes = (): Array<[string, string, string]> => [
    ["POST", "/_sandbox/applications", JSON.stringify({ name: "planted" })],
    ["POST", `/_sandbox/applications/${app.id}/api-key`, ""],
    ["POST", `/_sandbox/applications/${app.id}/channels`, JSON.stringify({ kind: "sms" })],
    [
      "POST",
      `/_sandbox/applications/${app.id}/webhooks`,
      JSON.stringify({ endpoint: "https://evil.example/in" }),
    ],
    ["PATCH", `/_sandbox/webhooks/${webhookId}`, JSON.stringify({ endpoint: "https://evil.example/in" })],
    ["PUT", "/_sandbox/faults", JSON.stringify({ errorRate: 1 })],
    ["DELETE", "/_sandbox/faults", ""],
    ["DELETE", "/_sandbox/inbox", ""],
  ];

  const json = { "content-type": "application/json" };
  const crossSite: Array<[string, Record<string, string>]> = [
    ["Sec-Fetch-Site: cross-site", { ...json, "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site", { ...json, "sec-fetch-site": "same-site" }],
    ["a foreign Origin", { ...json, origin: "https://evil.example" }],
    ["Origin: null", { ...json, origin: "null" }],
    ["a look-alike Origin", { ...json, origin: "http://127.0.0.1.evil.example" }],
    ["the sandbox's host on another port", { ...json, origin: "http://127.0.0.1:1" }],
    ["the sandbox's origin over https", { ...json, origin: "https://HOST" }],
    ["a foreign Referer and no Origin", { ...json, referer: "https://evil.example/page" }],
  ];
  const notJson: Array<[string, Record<string, string>]> = [
    ["no Content-Type", {}],
    ["text/plain", { "content-type": "text/plain" }],
    ["a form", { "content-type": "application/x-www-form-urlencoded" }],
    ["multipart", { "content-type": "multipart/form-data; boundary=x" }],
    ["application/json-seq", { "content-type": "application/json-seq" }],
  ];

  it.each(crossSite)("403 for %s, and nothing changes", async (_what, headers) => {
    const host = new URL(t.sandbox.url).host;
    const before = await state();
    for (const [method, path, body] of routes()) {
      const withHost = Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [name, value.replace("HOST", host)]),
      );
      const answer = await send(method, path, withHost, body);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.error?.code).toBe("cross_site_refused");
      expect(answer.body.error?.message).toMatch(/cross-site.*not from a web page/);
    }
    expect(await state()).toEqual(before);
  });

  it.each(notJson)("415 for %s, and nothing changes", async (_what, headers) => {
    const before = await state();
    for (const [method, path, body] of routes()) {
      const answer = await send(method, path, headers, body);
      expect(answer.status, `${method} ${path}`).toBe(415);
      expect(answer.body.error?.code).toBe("unsupported_media_type");
      expect(answer.body.error?.message).toContain("Content-Type: application/json");
    }
    expect(await state()).toEqual(before);
  });

  it("the sandbox's own origin, and scripts (no Origin), are served", async () => {
    const own = await send(
      "POST",
      `/_sandbox/applications/${app.id}/channels`,
      { ...json, origin: t.sandbox.url, "sec-fetch-site": "same-origin" },
      JSON.stringify({ kind: "sms" }),
    );
    expect(own.status).toBe(201);
    const script = await send("POST", `/_sandbox/applications/${app.id}/api-key`, json);
    expect(script.status).toBe(200);
    // Reading stays open to a GET (a page cannot read the answer cross-site).
    expect((await send("GET", "/_sandbox/stats", { origin: "https://evil.example" })).status).toBe(200);
  });
});
