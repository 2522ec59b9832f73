/**
 * Contract: sending a message and the deliveries it causes (spec parts 4.1 and 6).
 * Each test names the part it checks. Against the in-process sandbox every rule runs, with
 * webhooks at the sandbox's own receivers; against another API, only sending (when allowed).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookSchema, type WebhookLog } from "../../lib/domain/hub-schemas";
import { HubApi, waitFor } from "../sandbox/support/clients";
import { startReceiver, type TestReceiver } from "../sandbox/support/receiver";
import {
  SKIP_NEEDS_ADMIN,
  SKIP_NEEDS_SEND,
  setUpTarget,
  type ContractTarget,
  type SandboxPowers,
} from "./target";

let target: ContractTarget;
let receiver: TestReceiver;

beforeAll(async () => {
  target = await setUpTarget();
  receiver = await startReceiver(() => ({ status: 200, body: "thanks" }));
});
afterAll(async () => {
  await target.close();
  await receiver.close();
});

/**
 * Sandbox only: a fresh application whose one webhook points at `endpoint`; sends `count`
 * messages and waits until they are delivered. Returns the logs and the message ids.
 */
async function deliverTo(sandbox: SandboxPowers, endpoint: string, count = 1) {
  const app = await sandbox.admin.application("sms");
  const webhook = await sandbox.admin.createWebhook(app.id, { endpoint });
  const api = new HubApi(target.baseUrl, app.apiKey);
  const before = webhookSchema.parse((await api.getWebhook(webhook.id)).body);
  const messageIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const sent = await api.send("sms", {
      from: app.channel.id,
      to: "5511999990000",
      content: { text: `event ${i}` },
    });
    expect(sent.status).toBeGreaterThanOrEqual(200);
    expect(sent.status).toBeLessThan(300);
    messageIds.push((sent.body as { messageId: string }).messageId);
  }
  await sandbox.whenIdle();
  const logs = (await api.logPage(webhook.id, { limit: 50 })).data;
  const after = webhookSchema.parse((await api.getWebhook(webhook.id)).body);
  return { webhook, logs, messageIds, before, after, log: logs[0] as WebhookLog };
}

describe("spec part 4.1: send a message", () => {
  it("§4.1 POST /v1/communication/{channel_kind}/message with {from, to, content.text} from the Application's channel succeeds (2xx)", async (ctx) => {
    ctx.skip(!target.channel || !target.sendTo, SKIP_NEEDS_SEND);
    const channel = target.channel!;
    const answer = await target.api.send(channel.kind, {
      from: channel.id,
      to: target.sendTo,
      content: { text: "contract test" },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(300);
  });

  it("§6.1 / §6.2 a sent message calls the webhook, and the attempt produces a log naming the message", async (ctx) => {
    ctx.skip(!target.channel || !target.sendTo, SKIP_NEEDS_SEND);
    if (target.sandbox) {
      const { logs, messageIds } = await deliverTo(target.sandbox, `${receiver.url}/one`);
      expect(logs.map((log) => log.messageId)).toEqual(messageIds);
      return;
    }
    // Another API: the configured webhook must be active and of eventType Message.
    const channel = target.channel!;
    const sent = await target.api.send(channel.kind, {
      from: channel.id,
      to: target.sendTo,
      content: { text: "contract test" },
    });
    const messageId =
      (sent.body as { messageId?: string; id?: string }).messageId ?? (sent.body as { id?: string }).id;
    ctx.skip(!messageId, "the send answer names no message id, so its log cannot be found");
    const found = await waitFor(
      `a log for message ${messageId}`,
      async () =>
        (await target.api.logPage(target.webhookId, { limit: 50 })).data
          .filter((log) => log.messageId === messageId)
          .at(0),
      target.waitMs,
      1000,
    );
    expect(found.webhookId).toBe(target.webhookId);
  });
});

/** Sandbox receivers (or a fixed endpoint), and the log the spec says an attempt on them gives. */
const OUTCOMES = [
  ["§6.3 an endpoint answering 2xx gives a Success log", "ok", 200, "Success"],
  ["§6.3 an endpoint answering non-2xx gives a Failed log", "status/409", 409, "Failed"],
  [
    "§6.3 / §6.6 an endpoint that does not answer in time gives a Failed log with statusCode 0",
    "hang",
    0,
    "Failed",
  ],
  [
    "§6.5 / §6.6 an endpoint rejecting the secret header gives a Failed log with statusCode 401",
    "unauthorized",
    401,
    "Failed",
  ],
  ["§6.6 no connection (nothing listening) gives statusCode 0", "http://127.0.0.1:1/hook", 0, "Failed"],
  ["§6.6 a route missing on the customer server gives statusCode 404", "not-found", 404, "Failed"],
  ["§6.6 an internal error of the customer server gives statusCode 500", "error", 500, "Failed"],
] as const;

describe("spec part 6: deliveries and their logs", () => {
  it.for(OUTCOMES)("%s", async ([, receiver, statusCode, status], ctx) => {
    ctx.skip(!target.sandbox, SKIP_NEEDS_ADMIN);
    const sandbox = target.sandbox!;
    const endpoint = receiver.startsWith("http") ? receiver : sandbox.receiverUrl(receiver);
    const { log } = await deliverTo(sandbox, endpoint);
    expect(log).toMatchObject({ statusCode, status });
  });

  it("§6.2 each attempt produces one log: three messages, three logs, one per message", async (ctx) => {
    ctx.skip(!target.sandbox, SKIP_NEEDS_ADMIN);
    const { logs, messageIds } = await deliverTo(target.sandbox!, target.sandbox!.receiverUrl("ok"), 3);
    expect(logs).toHaveLength(3);
    expect(new Set(logs.map((log) => log.messageId))).toEqual(new Set(messageIds));
  });

  it("§6.4 every failed log adds one to the webhook's numberOfErrors", async (ctx) => {
    ctx.skip(!target.sandbox, SKIP_NEEDS_ADMIN);
    const { before, after, logs } = await deliverTo(target.sandbox!, target.sandbox!.receiverUrl("error"), 2);
    expect(logs.every((log) => log.status === "Failed")).toBe(true);
    expect(after.numberOfErrors - before.numberOfErrors).toBe(2);
  });

  it("§6.4 a successful log does not add to numberOfErrors", async (ctx) => {
    ctx.skip(!target.sandbox, SKIP_NEEDS_ADMIN);
    const { before, after } = await deliverTo(target.sandbox!, target.sandbox!.receiverUrl("ok"), 2);
    expect(after.numberOfErrors).toBe(before.numberOfErrors);
  });

  it("§6.5 the service authenticates to the endpoint with the webhook's secret in a header", async (ctx) => {
    ctx.skip(!target.sandbox, SKIP_NEEDS_ADMIN);
    const first = receiver.requests.length;
    const { webhook } = await deliverTo(target.sandbox!, `${receiver.url}/secret`);
    const secret = (webhook as { secret?: string }).secret;
    expect(secret).toBeTruthy();
    const request = receiver.requests.slice(first).find((r) => r.path === "/secret");
    expect(request?.method).toBe("POST");
    expect(Object.values(request?.headers ?? {})).toContain(secret);
  });

  it("§2 a log's responseBody is the body the endpoint returned", async (ctx) => {
    ctx.skip(!target.sandbox, SKIP_NEEDS_ADMIN);
    const { log } = await deliverTo(target.sandbox!, `${receiver.url}/body`);
    expect(log.responseBody).toBe("thanks");
  });
});
