/**
 * Deliveries: each outcome of spec part 6 recorded as the spec says, the event and its secret
 * header, truncation, which webhooks get deliveries, and numberOfErrors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookSchema, type WebhookLog } from "../../lib/domain/hub-schemas";
import { RESPONSE_BODY_MAX_BYTES, TRUNCATION_MARKER_PREFIX } from "../../lib/sandbox/attempt";
import {
  RECEIVER_EXPECTED_SECRET,
  receiverUrl as receiverAt,
  SECRET_HEADER,
} from "../../lib/sandbox/receivers";
import { waitFor, type HubApi } from "./support/clients";
import { closedPort, startReceiver, type Answer, type TestReceiver } from "./support/receiver";
import { startTestSandbox, type TestSandbox } from "./support/sandbox";

/** The timeout of `short`, the sandbox for the timeout tests. */
const TIMEOUT_MS = 400;

/** Most tests: a generous timeout, so a busy machine cannot turn a local 200 into a timeout. */
let t: TestSandbox;
let short: TestSandbox;
let receiver: TestReceiver;

beforeAll(async () => {
  t = await startTestSandbox({ deliveryTimeoutMs: 10_000 });
  short = await startTestSandbox({ deliveryTimeoutMs: TIMEOUT_MS });
  receiver = await startReceiver((request): Answer => {
    if (request.path === "/slow-body")
      return { status: 200, body: "partial", streamEndAfterMs: TIMEOUT_MS * 3 };
    if (request.path === "/redirect")
      return { status: 302, headers: { location: "/after-redirect" }, body: "Found" };
    if (request.path === "/after-redirect") return { status: 200, body: "followed" };
    if (request.path === "/utf8") return { status: 200, body: "é".repeat(RESPONSE_BODY_MAX_BYTES) };
    return { status: 200, body: '{"ok":true}', headers: { "content-type": "application/json" } };
  });
});

afterAll(async () => {
  await t.sandbox.close({ graceMs: 0 });
  await short.sandbox.close({ graceMs: 0 });
  await receiver.close();
});

async function allLogs(api: HubApi, webhookId: string): Promise<WebhookLog[]> {
  const logs: WebhookLog[] = [];
  for (let offset = 0; ; offset += 50) {
    const page = await api.logPage(webhookId, { offset, limit: 50 });
    logs.push(...page.data);
    if (offset + 50 >= page.pagination.total) return logs;
  }
}

/** A fresh application with one webhook at `endpoint`; sends one message and waits for the deliveries. */
async function deliverOnce(endpoint: string, webhook: { secret?: string } = {}, on: TestSandbox = t) {
  const app = await on.admin.application();
  const created = await on.admin.createWebhook(app.id, { endpoint, ...webhook });
  const api = on.api(app.apiKey);
  const sent = await api.send("whatsapp", {
    from: app.channel.id,
    to: "5511999990000",
    content: { text: "hello" },
  });
  expect(sent.status).toBe(202);
  await on.sandbox.whenIdle();
  const logs = await allLogs(api, created.id);
  expect(logs).toHaveLength(1);
  const log = logs[0] as WebhookLog;
  return { app, api, webhook: created, log, messageId: (sent.body as { messageId: string }).messageId };
}

const receiverUrl = (name: string, on: TestSandbox = t) => receiverAt(on.sandbox.url, name);

describe("delivery outcomes (spec part 6)", () => {
  it("a 2xx answer is a Success log with the status code and body", async () => {
    const { log, messageId, webhook } = await deliverOnce(receiverUrl("ok"));
    expect(log).toMatchObject({ statusCode: 200, status: "Success", messageId, webhookId: webhook.id });
    expect(JSON.parse(log.responseBody)).toEqual({ received: true });
    expect(log.webhook).toEqual({ id: webhook.id, endpoint: webhook.endpoint, eventType: "Message" });
    expect(Date.parse(log.sendAt)).toBeLessThanOrEqual(Date.parse(log.createdDate));
  });

  it("a 401 from an endpoint that checks the secret header is a Failed log", async () => {
    const { log } = await deliverOnce(receiverUrl("unauthorized"));
    expect(log).toMatchObject({ statusCode: 401, status: "Failed" });
    expect(log.responseBody).toContain(SECRET_HEADER);
  });

  it("the same endpoint answers 200 when the webhook's secret is the one it expects", async () => {
    const { log } = await deliverOnce(receiverUrl("unauthorized"), { secret: RECEIVER_EXPECTED_SECRET });
    expect(log).toMatchObject({ statusCode: 200, status: "Success" });
  });

  it("a 404 is a Failed log with the HTML body", async () => {
    const { log } = await deliverOnce(receiverUrl("not-found"));
    expect(log).toMatchObject({ statusCode: 404, status: "Failed" });
    expect(log.responseBody).toContain("Cannot POST");
  });

  it("a 500 is a Failed log with the error page", async () => {
    const { log } = await deliverOnce(receiverUrl("error"));
    expect(log).toMatchObject({ statusCode: 500, status: "Failed" });
    expect(log.responseBody).toContain("Internal Server Error");
  });

  it("a 3xx is not followed: Failed with that code", async () => {
    const before = receiver.requests.length;
    const { log } = await deliverOnce(`${receiver.url}/redirect`);
    expect(log).toMatchObject({ statusCode: 302, status: "Failed", responseBody: "Found" });
    const paths = receiver.requests.slice(before).map((r) => r.path);
    expect(paths).toEqual(["/redirect"]);
  });

  it("an endpoint that does not answer within SANDBOX_DELIVERY_TIMEOUT_MS is statusCode 0, Failed", async () => {
    const started = Date.now();
    const { log } = await deliverOnce(receiverUrl("hang", short), {}, short);
    expect(log).toMatchObject({ statusCode: 0, status: "Failed" });
    expect(log.responseBody).toMatch(/within 400 ms/);
    const waited = Date.parse(log.createdDate) - Date.parse(log.sendAt);
    expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(waited).toBeLessThan(TIMEOUT_MS + 3000);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("headers in time but a body that does not finish in time is a timeout too (statusCode 0)", async () => {
    const { log } = await deliverOnce(`${receiver.url}/slow-body`, {}, short);
    expect(log).toMatchObject({ statusCode: 0, status: "Failed" });
    expect(log.responseBody).toMatch(/within 400 ms/);
  });

  it("a closed port is statusCode 0 (connection refused), Failed", async () => {
    const { log } = await deliverOnce(`http://127.0.0.1:${await closedPort()}/hook`);
    expect(log).toMatchObject({ statusCode: 0, status: "Failed" });
    expect(log.responseBody).toContain("ECONNREFUSED");
  });

  it("a port that fetch would refuse as 'bad' (1) is still attempted: refused, statusCode 0", async () => {
    const { log } = await deliverOnce("http://127.0.0.1:1/hook");
    expect(log).toMatchObject({ statusCode: 0, status: "Failed" });
    expect(log.responseBody).toContain("ECONNREFUSED");
  });

  it("a host name that does not resolve is statusCode 0", async () => {
    const { log } = await deliverOnce("http://no-such-host.invalid/hook");
    expect(log).toMatchObject({ statusCode: 0, status: "Failed" });
    expect(log.responseBody).toMatch(/could not be resolved|ENOTFOUND|EAI_AGAIN/);
  });

  it("a TLS failure (https to a plain-http port) is statusCode 0", async () => {
    const { log } = await deliverOnce(`${receiver.url.replace("http:", "https:")}/tls`);
    expect(log).toMatchObject({ statusCode: 0, status: "Failed" });
    expect(log.responseBody).toMatch(/TLS|SSL/);
  });

  it("other statuses are recorded as they are (201 Success, 429 Failed)", async () => {
    expect((await deliverOnce(receiverUrl("status/201"))).log).toMatchObject({
      statusCode: 201,
      status: "Success",
    });
    expect((await deliverOnce(receiverUrl("status/429"))).log).toMatchObject({
      statusCode: 429,
      status: "Failed",
    });
  });
});

describe("the delivered event", () => {
  it("is a JSON POST naming the event type and message, with the webhook's secret in x-webhook-secret", async () => {
    const before = receiver.requests.length;
    const { webhook, messageId, app } = await deliverOnce(`${receiver.url}/event`);
    const request = receiver.requests.slice(before).find((r) => r.path === "/event");
    expect(request).toBeDefined();
    expect(request?.method).toBe("POST");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers[SECRET_HEADER]).toBe(webhook.secret);
    expect(request?.headers["x-webhook-event"]).toBe("Message");
    const event = JSON.parse(request?.body ?? "{}");
    expect(event).toMatchObject({
      eventType: "Message",
      messageId,
      webhookId: webhook.id,
      channel: { id: app.channel.id, kind: "whatsapp" },
      from: app.channel.id,
      to: "5511999990000",
      content: { text: "hello" },
    });
    expect(Number.isNaN(Date.parse(event.occurredAt))).toBe(false);
  });
});

describe("response bodies", () => {
  it("are cut at 64 KiB with a marker saying how many bytes were not stored", async () => {
    const size = 200 * 1024;
    const { log } = await deliverOnce(receiverUrl(`big?bytes=${size}`));
    expect(log.status).toBe("Success");
    const [kept, marker] = log.responseBody.split(TRUNCATION_MARKER_PREFIX);
    expect(kept).toBe("x".repeat(RESPONSE_BODY_MAX_BYTES));
    expect(marker).toBe(`${size - RESPONSE_BODY_MAX_BYTES} bytes not stored]`);
  });

  it("are kept whole up to 64 KiB", async () => {
    const { log } = await deliverOnce(receiverUrl(`big?bytes=${RESPONSE_BODY_MAX_BYTES}`));
    expect(log.responseBody).toBe("x".repeat(RESPONSE_BODY_MAX_BYTES));
  });

  it("are cut on a UTF-8 character boundary", async () => {
    const { log } = await deliverOnce(`${receiver.url}/utf8`);
    const [kept, marker] = log.responseBody.split(TRUNCATION_MARKER_PREFIX);
    expect(kept).toBe("é".repeat(RESPONSE_BODY_MAX_BYTES / 2));
    expect(marker).toBe(`${RESPONSE_BODY_MAX_BYTES} bytes not stored]`);
  });
});

describe("which webhooks get a delivery", () => {
  it("only active webhooks with eventType Message, one log each; inactive and other event types get nothing", async () => {
    const app = await t.admin.application();
    const before = receiver.requests.length;
    const active = await t.admin.createWebhook(app.id, { endpoint: `${receiver.url}/active` });
    const inactive = await t.admin.createWebhook(app.id, {
      endpoint: `${receiver.url}/inactive`,
      active: false,
    });
    const otherType = await t.admin.createWebhook(app.id, {
      endpoint: `${receiver.url}/other`,
      eventType: "Status",
    });
    const api = t.api(app.apiKey);
    const sent = await api.send("whatsapp", { from: app.channel.id, to: "1", content: { text: "x" } });
    expect(sent.body).toMatchObject({ deliveries: 1, status: "queued" });
    await t.sandbox.whenIdle();
    expect(receiver.requests.slice(before).map((r) => r.path)).toEqual(["/active"]);
    expect(await allLogs(api, active.id)).toHaveLength(1);
    expect(await allLogs(api, inactive.id)).toHaveLength(0);
    expect(await allLogs(api, otherType.id)).toHaveLength(0);
  });

  it("a webhook switched to inactive stops getting deliveries, and gets them again when reactivated", async () => {
    const app = await t.admin.application();
    const webhook = await t.admin.createWebhook(app.id, { endpoint: receiverUrl("ok") });
    const api = t.api(app.apiKey);
    const send = () => api.send("whatsapp", { from: app.channel.id, to: "1", content: { text: "x" } });
    await send();
    await t.admin.patchWebhook(webhook.id, { active: false });
    await send();
    await t.admin.patchWebhook(webhook.id, { active: true });
    await send();
    await t.sandbox.whenIdle();
    expect(await allLogs(api, webhook.id)).toHaveLength(2);
  });

  it("messages of another application do not reach this application's webhooks", async () => {
    const mine = await t.admin.application();
    const theirs = await t.admin.application();
    const webhook = await t.admin.createWebhook(mine.id, { endpoint: receiverUrl("ok") });
    await t.api(theirs.apiKey).send("whatsapp", { from: theirs.channel.id, to: "1", content: { text: "x" } });
    await t.sandbox.whenIdle();
    expect(await allLogs(t.api(mine.apiKey), webhook.id)).toHaveLength(0);
  });
});

describe("numberOfErrors (spec part 6.4)", () => {
  it("equals the number of Failed logs, through a mix of outcomes", async () => {
    const app = await t.admin.application();
    const webhook = await t.admin.createWebhook(app.id, { endpoint: receiverUrl("ok") });
    const api = t.api(app.apiKey);
    const endpoints = ["ok", "error", "ok", "not-found", "status/302", "status/204", "error"];
    for (const name of endpoints) {
      await t.admin.patchWebhook(webhook.id, { endpoint: receiverUrl(name) });
      await api.send("whatsapp", { from: app.channel.id, to: "1", content: { text: name } });
      await t.sandbox.whenIdle();
    }
    const logs = await allLogs(api, webhook.id);
    expect(logs).toHaveLength(endpoints.length);
    const failed = logs.filter((l) => l.status === "Failed").length;
    expect(failed).toBe(4);
    const got = webhookSchema.parse((await api.getWebhook(webhook.id)).body);
    expect(got.numberOfErrors).toBe(failed);
    const failedPage = await api.logPage(webhook.id, { status: "Failed" });
    expect(failedPage.pagination.total).toBe(failed);
    expect(failedPage.data.every((l) => l.status === "Failed")).toBe(true);
  });
});

describe("an unexpected error while recording", () => {
  it("is logged by the sandbox and the delivery tried again: still exactly one log", async () => {
    const app = await t.admin.application();
    const webhook = await t.admin.createWebhook(app.id, { endpoint: receiverUrl("ok") });
    // A temporary trigger on the sandbox's own connection makes writing the log fail.
    t.sandbox.db.exec(
      `CREATE TEMP TRIGGER fail_log BEFORE INSERT ON webhook_logs WHEN NEW.webhook_id = '${webhook.id}'
       BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
    );
    const api = t.api(app.apiKey);
    await api.send("whatsapp", { from: app.channel.id, to: "1", content: { text: "x" } });
    try {
      await waitFor("the sandbox to report the failure", async () =>
        t.logLines.find((line) => line.includes("injected failure") && line.includes("trying again")),
      );
    } finally {
      t.sandbox.db.exec("DROP TRIGGER fail_log");
    }
    await t.sandbox.whenIdle();
    const logs = await allLogs(api, webhook.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ statusCode: 200, status: "Success" });
  });
});
