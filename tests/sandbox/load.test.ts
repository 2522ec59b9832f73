/**
 * Load: 1,000 messages from 20 concurrent clients. Every active webhook ends with
 * exactly 1,000 logs, one per message, and numberOfErrors equal to its count of Failed logs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { webhookSchema, type WebhookLog } from "../../lib/domain/hub-schemas";
import { receiverUrl } from "../../lib/sandbox/receivers";
import { closedPort, startReceiver, type TestReceiver } from "./support/receiver";
import { startTestSandbox, type TestSandbox } from "./support/sandbox";

const MESSAGES = 1000;
const CLIENTS = 20;

let t: TestSandbox;
let dir: string;
/** Fails (500) for every third message, so one webhook has a mix of Success and Failed. */
let flaky: TestReceiver;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sandbox-load-"));
  // A generous timeout: on a busy 2-core machine a local answer can take over a second, and
  // this test is about counting (one log per message, numberOfErrors = Failed), not latency.
  t = await startTestSandbox({ dbPath: path.join(dir, "load.sqlite"), deliveryTimeoutMs: 15_000 });
  flaky = await startReceiver((request) => {
    const n = Number(/load (\d+)/.exec(request.body)?.[1]);
    return { status: n % 3 === 0 ? 500 : 200, body: n % 3 === 0 ? "boom" : "ok" };
  });
});

afterAll(async () => {
  await t.sandbox.close({ graceMs: 0 });
  await flaky.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it("1,000 messages from 20 concurrent clients: exactly 1,000 logs per active webhook, numberOfErrors = Failed", async () => {
  const app = await t.admin.application("sms");
  const receiver = (name: string) => receiverUrl(t.sandbox.url, name);
  const active = [
    await t.admin.createWebhook(app.id, { endpoint: receiver("ok") }),
    await t.admin.createWebhook(app.id, { endpoint: `http://127.0.0.1:${await closedPort()}/hook` }),
    await t.admin.createWebhook(app.id, { endpoint: `${flaky.url}/hook` }),
  ];
  const inactive = await t.admin.createWebhook(app.id, { endpoint: receiver("ok"), active: false });
  const api = t.api(app.apiKey);

  const started = Date.now();
  let next = 0;
  const messageIds: string[] = [];
  const client = async () => {
    while (next < MESSAGES) {
      const n = next++;
      const answer = await api.send("sms", {
        from: app.channel.id,
        to: `5511${n}`,
        content: { text: `load ${n}` },
      });
      expect(answer.status).toBe(202);
      messageIds.push((answer.body as { messageId: string }).messageId);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  expect(messageIds).toHaveLength(MESSAGES);
  await t.sandbox.whenIdle();
  const elapsed = Date.now() - started;

  for (const webhook of active) {
    const logs: WebhookLog[] = [];
    for (let offset = 0; offset < MESSAGES; offset += 50) {
      const page = await api.logPage(webhook.id, { offset, limit: 50 });
      expect(page.pagination).toMatchObject({ total: MESSAGES, totalPages: MESSAGES / 50 });
      logs.push(...page.data);
    }
    expect(logs).toHaveLength(MESSAGES);
    expect(new Set(logs.map((l) => l.id)).size).toBe(MESSAGES);
    expect(new Set(logs.map((l) => l.messageId))).toEqual(new Set(messageIds));
    const failed = logs.filter((l) => l.status === "Failed").length;
    const got = webhookSchema.parse((await api.getWebhook(webhook.id)).body);
    expect(got.numberOfErrors).toBe(failed);
    const counted = t.sandbox.db
      .prepare("SELECT COUNT(*) AS n FROM webhook_logs WHERE webhook_id = ? AND status = 'Failed'")
      .get(webhook.id) as { n: number };
    expect(counted.n).toBe(failed);
  }
  const [ok, refused, mixed] = active.map((w) => t.sandbox.store.getWebhook(w.id));
  expect(ok?.numberOfErrors).toBe(0);
  expect(refused?.numberOfErrors).toBe(MESSAGES);
  expect(mixed?.numberOfErrors).toBe(Math.ceil(MESSAGES / 3)); // n = 0, 3, 6, ... 999
  expect(flaky.requests).toHaveLength(MESSAGES);
  expect(t.sandbox.store.getWebhook(inactive.id)?.logCount).toBe(0);
  expect(elapsed).toBeLessThan(45_000);
}, 60_000);
