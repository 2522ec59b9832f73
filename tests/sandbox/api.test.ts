/**
 * The sandbox's answers on the spec routes where the spec leaves the details open: error shape,
 * input validation, the channel_kind rule, routing, what is never shown, how keys are stored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookSchema } from "../../lib/domain/hub-schemas";
import { hashApiKey } from "../../lib/sandbox/keys";
import { receiverUrl } from "../../lib/sandbox/receivers";
import { requestJson, type HubApi } from "./support/clients";
import { startTestSandbox, type TestSandbox } from "./support/sandbox";

let t: TestSandbox;
let app: Awaited<ReturnType<TestSandbox["admin"]["application"]>>;
let api: HubApi;
let webhookId: string;
let secret: string;

const errorShape = { error: { code: expect.any(String), message: expect.any(String) } };
const message = () => ({ from: app.channel.id, to: "5511999990000", content: { text: "hi" } });

beforeAll(async () => {
  t = await startTestSandbox();
  app = await t.admin.application("whatsapp");
  api = t.api(app.apiKey);
  const webhook = await t.admin.createWebhook(app.id, {
    endpoint: receiverUrl(t.sandbox.url, "ok"),
    description: "kept as an extra field",
  });
  webhookId = webhook.id;
  secret = webhook.secret;
  for (let i = 0; i < 3; i++) await api.send("whatsapp", message());
  await t.sandbox.whenIdle();
});

afterAll(() => t.sandbox.close({ graceMs: 0 }));

describe("send a message", () => {
  it("answers 202 with the message id, queued, and how many deliveries were queued", async () => {
    const answer = await api.send("whatsapp", message());
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({
      status: "queued",
      deliveries: 1,
      channelKind: "whatsapp",
      to: "5511999990000",
    });
    const body = answer.body as { id: string; messageId: string };
    expect(body.messageId).toBe(body.id);
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("400 names every invalid field", async () => {
    const answer = await api.send("whatsapp", { from: "not-a-uuid", to: "", content: {} });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: "invalid_message" } });
    const paths = (answer.body as { error: { issues: Array<{ path: string }> } }).error.issues.map(
      (i) => i.path,
    );
    expect(paths).toEqual(expect.arrayContaining(["from", "to", "content.text"]));
  });

  it("400 for a body that is not JSON", async () => {
    const answer = await api.send("whatsapp", "{not json");
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: "invalid_json" } });
  });

  it("415 when the Content-Type is not JSON", async () => {
    const answer = await api.send("whatsapp", JSON.stringify(message()), { "content-type": "text/plain" });
    expect(answer.status).toBe(415);
    expect(answer.body).toMatchObject({ error: { code: "unsupported_media_type" } });
  });

  it("413 for a body over 64 KiB", async () => {
    const answer = await api.send("whatsapp", { ...message(), content: { text: "x".repeat(70 * 1024) } });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ error: { code: "payload_too_large" } });
  });

  it("a channel_kind that is not the channel's kind is 404 channel_kind_mismatch, naming the right path", async () => {
    const answer = await api.send("sms", message());
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { code: "channel_kind_mismatch" } });
    expect((answer.body as { error: { message: string } }).error.message).toContain(
      "/v1/communication/whatsapp/message",
    );
  });

  it("a channel_kind that is not a kind at all is 400", async () => {
    const answer = await api.send("WhatsApp!", message());
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: "invalid_channel_kind" } });
  });

  it("authentication comes first: a bad key is 401 even with a bad body", async () => {
    const answer = await t.api("mh_sbx_definitely-not-a-real-key").send("whatsapp", "{not json");
    expect(answer.status).toBe(401);
  });
});

describe("list logs", () => {
  it.each([
    ["limit=0", "The query is invalid: limit: give a whole number from 1 to 50 (logs per page)."],
    ["limit=51", "limit: give a whole number from 1 to 50"],
    ["limit=1.5", "limit: give a whole number from 1 to 50"],
    ["limit=abc", "limit: give a whole number from 1 to 50"],
    ["offset=-1", "The query is invalid: offset: give a whole number of 0 or more (how many logs to skip)."],
    ["offset=x", "offset: give a whole number of 0 or more"],
    ["status=failed", "status: give Success or Failed, or leave it out."],
    ["limit=10&limit=20", "given 2 times"],
  ])("400 for %s, saying %s", async (query, says) => {
    const answer = await api.listLogs(webhookId, query);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject(errorShape);
    expect((answer.body as { error: { message: string } }).error.message).toContain(says);
  });

  it("limit=50 and limit=1 are accepted", async () => {
    expect((await api.listLogs(webhookId, "limit=50")).status).toBe(200);
    expect((await api.listLogs(webhookId, "limit=1")).status).toBe(200);
  });

  it("an offset past the end is an empty page with the true total", async () => {
    const first = await api.logPage(webhookId);
    expect(first.pagination.total).toBeGreaterThanOrEqual(3);
    const page = await api.logPage(webhookId, "offset=1000");
    expect(page.data).toEqual([]);
    expect(page.pagination).toEqual({
      offset: 1000,
      limit: 20,
      total: first.pagination.total,
      totalPages: 1,
    });
  });

  it("unknown query parameters are ignored, as APIs usually do", async () => {
    expect((await api.listLogs(webhookId, "page=2&sort=asc")).status).toBe(200);
  });

  it("log objects carry exactly the spec's fields", async () => {
    const page = await api.logPage(webhookId);
    expect(Object.keys(page.data[0] ?? {}).sort()).toEqual(
      [
        "createdDate",
        "id",
        "messageId",
        "responseBody",
        "sendAt",
        "status",
        "statusCode",
        "webhook",
        "webhookId",
      ].sort(),
    );
    expect(Object.keys(page.data[0]?.webhook ?? {}).sort()).toEqual(["endpoint", "eventType", "id"]);
  });
});

describe("get a webhook", () => {
  it("has the spec's fields plus extra ones, and never the secret", async () => {
    const answer = await api.getWebhook(webhookId);
    expect(answer.status).toBe(200);
    const webhook = webhookSchema.parse(answer.body);
    expect(webhook).toMatchObject({ description: "kept as an extra field", createdDate: expect.any(String) });
    expect(JSON.stringify(answer.body)).not.toContain(secret);
    expect(webhook).not.toHaveProperty("secret");
  });

  it("a webhook id that is not a UUID is 400 invalid_webhook_id", async () => {
    const answer = await api.getWebhook("not-a-uuid");
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: "invalid_webhook_id" } });
  });

  it("the secret appears nowhere on the spec routes", async () => {
    const logs = await api.listLogs(webhookId, "limit=50");
    expect(JSON.stringify(logs.body)).not.toContain(secret);
  });
});

describe("routing", () => {
  it("an unknown route is 404 route_not_found in the error shape", async () => {
    const answer = await requestJson(`${t.sandbox.url}/v1/nope`);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { code: "route_not_found" } });
  });

  it("a known route with the wrong method is 405 with Allow", async () => {
    const answer = await requestJson(`${t.sandbox.url}/v1/organization/webhook/${webhookId}`, {
      method: "DELETE",
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET");
    expect(answer.body).toMatchObject({ error: { code: "method_not_allowed" } });
  });

  it("every error answer is JSON { error: { code, message } }", async () => {
    const answers = await Promise.all([
      t.api(undefined).getWebhook(webhookId),
      api.getWebhook("00000000-0000-4000-8000-000000000000"),
      api.listLogs(webhookId, "limit=99"),
      requestJson(`${t.sandbox.url}/v1/communication/whatsapp/message`),
    ]);
    for (const answer of answers) {
      expect(answer.headers.get("content-type")).toContain("application/json");
      expect(answer.body).toMatchObject(errorShape);
    }
  });
});

describe("keys at rest", () => {
  it("only the SHA-256 of a key is stored, never the key", () => {
    const rows = t.sandbox.db.prepare("SELECT * FROM applications").all();
    expect(JSON.stringify(rows)).not.toContain(app.apiKey);
    const row = t.sandbox.db
      .prepare("SELECT api_key_hash AS hash FROM applications WHERE id = ?")
      .get(app.id);
    expect(row).toEqual({ hash: hashApiKey(app.apiKey) });
  });
});
