/**
 * The demo data: fixed key and ids, deterministic history (the counts lib/sandbox/README.md
 * documents), every outcome live through the sandbox's own receivers, and endpoints that follow
 * the port across restarts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookSchema, type WebhookLog } from "../../lib/domain/hub-schemas";
import {
  BUSY,
  CLOSED_PORT_ENDPOINT,
  DEMO_API_KEY,
  DEMO_APPLICATION_ID,
  DEMO_CHANNELS,
  DEMO_WEBHOOKS,
  STAGING,
} from "../../lib/sandbox/seed";
import { requestJson, SandboxAdmin } from "./support/clients";
import { startTestSandbox, type TestSandbox } from "./support/sandbox";

/** Per demo webhook, in DEMO_WEBHOOKS order: [logs, of which Failed] in the seeded history. */
const HISTORY_COUNTS: ReadonlyArray<readonly [number, number]> = [
  [120, 14], // 200 OK
  [80, 71], // 401
  [60, 56], // 404
  [60, 53], // 500
  [40, 38], // timeout
  [40, 40], // connection refused
  [20, 20], // inactive
  [3000, 259], // busy, failing now
];

/** Every log of the seeded history (Staging's included). */
const ALL_LOGS = 420 + BUSY.logs + STAGING.messages * STAGING.webhooks.length;

/** Long enough for local receivers on a busy machine; the hang receiver makes the live test wait this long. */
const TIMEOUT_MS = 1500;
let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox({ seed: "demo", deliveryTimeoutMs: TIMEOUT_MS });
});
afterAll(() => t.sandbox.close({ graceMs: 0 }));

const demoApi = () => t.api(DEMO_API_KEY);

const firstPage = (webhookId: string, query = "limit=50") => demoApi().logPage(webhookId, query);

describe("demo seed", () => {
  it("GET /_sandbox/demo has exactly the shape the console uses", async () => {
    const answer = await requestJson<Record<string, unknown>>(`${t.sandbox.url}/_sandbox/demo`);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual([
      "apiKey",
      "applicationId",
      "applications",
      "channels",
      "webhooks",
    ]);
    expect(answer.body).toMatchObject({ apiKey: DEMO_API_KEY, applicationId: DEMO_APPLICATION_ID });
    expect(answer.body.channels).toEqual(DEMO_CHANNELS.map(({ id, kind }) => ({ id, kind })));
    const webhooks = answer.body.webhooks as Array<Record<string, unknown>>;
    expect(webhooks.map((w) => w.id)).toEqual(DEMO_WEBHOOKS.map((w) => w.id));
    for (const w of webhooks)
      expect(Object.keys(w).sort()).toEqual(["active", "endpoint", "eventType", "id", "label"]);
    expect(webhooks.filter((w) => !w.active)).toHaveLength(1);
    const applications = answer.body.applications as Array<Record<string, unknown>>;
    expect(applications.map(({ name, apiKey, applicationId }) => ({ name, apiKey, applicationId }))).toEqual([
      { name: "Demo application", apiKey: DEMO_API_KEY, applicationId: DEMO_APPLICATION_ID },
      { name: STAGING.name, apiKey: STAGING.apiKey, applicationId: STAGING.applicationId },
    ]);
    expect(applications[0]).toMatchObject({ channels: answer.body.channels, webhooks: answer.body.webhooks });
  });

  it("Staging, the second demo application: its own key, channel and webhooks, invisible to the first key", async () => {
    const staging = t.api(STAGING.apiKey);
    for (const plan of STAGING.webhooks) {
      const page = await staging.logPage(plan.id, "limit=50");
      expect(page.pagination.total).toBe(STAGING.messages);
      expect((await demoApi().listLogs(plan.id)).status).toBe(404);
    }
    expect((await staging.listLogs(DEMO_WEBHOOKS[0]!.id)).status).toBe(404);
    const info = t.sandbox.demo()?.applications[1];
    expect(info?.webhooks.map((w) => w.endpoint)).toEqual([
      `${t.sandbox.url}/_sandbox/receivers/ok`,
      `${t.sandbox.url}/_sandbox/receivers/not-found`,
    ]);
  });

  it("demo endpoints point at this server's receivers (and one closed port)", () => {
    const endpoints = t.sandbox.demo()?.webhooks.map((w) => w.endpoint);
    expect(endpoints).toEqual([
      `${t.sandbox.url}/_sandbox/receivers/ok`,
      `${t.sandbox.url}/_sandbox/receivers/unauthorized`,
      `${t.sandbox.url}/_sandbox/receivers/not-found`,
      `${t.sandbox.url}/_sandbox/receivers/error`,
      `${t.sandbox.url}/_sandbox/receivers/hang`,
      CLOSED_PORT_ENDPOINT,
      `${t.sandbox.url}/_sandbox/receivers/ok`,
      `${t.sandbox.url}/_sandbox/receivers/error`,
    ]);
  });

  it("the history has the documented counts, and numberOfErrors matches the Failed logs", async () => {
    for (const [index, plan] of DEMO_WEBHOOKS.entries()) {
      const [total, failed] = HISTORY_COUNTS[index] ?? [0, 0];
      expect((await firstPage(plan.id)).pagination.total, plan.label).toBe(total);
      expect((await firstPage(plan.id, "status=Failed")).pagination.total, plan.label).toBe(failed);
      const counted = t.sandbox.db
        .prepare("SELECT COUNT(*) AS n FROM webhook_logs WHERE webhook_id = ? AND status = 'Failed'")
        .get(plan.id) as { n: number };
      expect(counted.n).toBe(failed);
      const webhook = webhookSchema.parse((await demoApi().getWebhook(plan.id)).body);
      expect(webhook.numberOfErrors, plan.label).toBe(failed);
    }
    const total = t.sandbox.db.prepare("SELECT COUNT(*) AS n FROM webhook_logs").get() as { n: number };
    expect(total.n).toBe(ALL_LOGS);
  });

  it("the history covers every statusCode of spec part 6, 3xx and other 4xx/5xx", () => {
    const rows = t.sandbox.db
      .prepare("SELECT DISTINCT status_code AS code FROM webhook_logs")
      .all() as Array<{ code: number }>;
    const codes = rows.map((r) => r.code);
    expect(codes).toEqual(
      expect.arrayContaining([0, 200, 401, 404, 500, 301, 302, 400, 403, 429, 502, 503, 504]),
    );
  });

  it("the newest 404 log holds a script tag, the newest 500 log a ~200 KB body", async () => {
    const notFound = (await firstPage(DEMO_WEBHOOKS[2]?.id ?? "")).data[0] as WebhookLog;
    expect(notFound.statusCode).toBe(404);
    expect(notFound.responseBody).toContain("<script>alert(1)</script>");
    const error = (await firstPage(DEMO_WEBHOOKS[3]?.id ?? "")).data[0] as WebhookLog;
    expect(error.statusCode).toBe(500);
    expect(error.responseBody.length).toBeGreaterThan(200 * 1024);
    expect(error.responseBody.length).toBeLessThan(210 * 1024);
  });

  it("the history is newest first, spread over the last 7 days, each log with a message id", async () => {
    const page = await firstPage(DEMO_WEBHOOKS[0]?.id ?? "");
    const times = page.data.map((l) => Date.parse(l.createdDate));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(page.data.every((l) => typeof l.messageId === "string")).toBe(true);
    const oldest = await firstPage(DEMO_WEBHOOKS[0]?.id ?? "", "offset=119&limit=1");
    const age = Date.now() - Date.parse(oldest.data[0]?.createdDate ?? "");
    expect(age).toBeGreaterThan(6 * 24 * 3600_000);
    expect(age).toBeLessThan(8 * 24 * 3600_000);
  });

  it("the busy webhook: thousands of logs over several days, a mix of codes, and a failing streak now", async () => {
    const busy = DEMO_WEBHOOKS[7]?.id ?? "";
    const logs: WebhookLog[] = [];
    for (let offset = 0; offset < BUSY.logs; offset += 50)
      logs.push(...(await firstPage(busy, `limit=50&offset=${offset}`)).data);
    expect(logs).toHaveLength(BUSY.logs);
    const times = logs.map((l) => Date.parse(l.createdDate));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const span = (times[0] ?? 0) - (times.at(-1) ?? 0);
    expect(span).toBeGreaterThan(5.5 * 24 * 3600_000);
    // The newest BUSY.streak attempts failed, the one before succeeded; the streak began ~90 min ago.
    expect(logs.slice(0, BUSY.streak).every((l) => l.status === "Failed")).toBe(true);
    expect(logs[BUSY.streak]?.status).toBe("Success");
    const streakAge = Date.now() - Date.parse(logs[BUSY.streak - 1]?.sendAt ?? "");
    expect(streakAge).toBeGreaterThan(80 * 60_000);
    expect(streakAge).toBeLessThan(95 * 60_000);
    expect(Date.now() - Date.parse(logs[0]?.sendAt ?? "")).toBeLessThan(5 * 60_000);
    const codes = new Set(logs.map((l) => l.statusCode));
    expect([...codes].sort((a, b) => a - b)).toEqual([0, 200, 401, 404, 429, 500, 502, 503, 504]);
    const lastDay = logs.filter((l) => Date.now() - Date.parse(l.sendAt) < 24 * 3600_000);
    expect(lastDay.length).toBeGreaterThan(400);
    expect(lastDay.some((l) => l.status === "Success")).toBe(true);
    expect(logs.every((l) => typeof l.messageId === "string")).toBe(true);
  });

  it("seeding stays fast (one transaction)", async () => {
    const started = performance.now();
    const other = await startTestSandbox({ seed: "demo" });
    const ms = performance.now() - started;
    await other.sandbox.close({ graceMs: 0 });
    expect(ms).toBeLessThan(3000);
  });

  it("is deterministic: another sandbox seeds the same log ids", async () => {
    const other = await startTestSandbox({ seed: "demo" });
    try {
      const ids = async (on: TestSandbox) =>
        (await on.api(DEMO_API_KEY).logPage(DEMO_WEBHOOKS[1]?.id ?? "", "limit=50&offset=20")).data.map(
          (l) => l.id,
        );
      expect(await ids(other)).toEqual(await ids(t));
    } finally {
      await other.sandbox.close({ graceMs: 0 });
    }
  });

  it("a message sent with the demo key shows every outcome live; the inactive webhook gets nothing", async () => {
    const before = new Map<string, number>();
    for (const plan of DEMO_WEBHOOKS) before.set(plan.id, (await firstPage(plan.id)).pagination.total);
    const channel = DEMO_CHANNELS[1];
    const sent = await demoApi().send(channel.kind, {
      from: channel.id,
      to: "5511988887777",
      content: { text: "live" },
    });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ deliveries: 7 });
    await t.sandbox.whenIdle();
    const expected: Record<string, number | null> = {
      "200 OK": 200,
      "401 Unauthorized (secret header rejected)": 401,
      "404 Not Found": 404,
      "500 Internal Server Error": 500,
      "Timeout (statusCode 0)": 0,
      "Connection refused (statusCode 0)": 0,
      "Busy shop (thousands of deliveries, failing now)": 500,
    };
    for (const plan of DEMO_WEBHOOKS) {
      const page = await firstPage(plan.id);
      const added = page.pagination.total - (before.get(plan.id) ?? 0);
      if (!plan.active) {
        expect(added, plan.label).toBe(0);
        continue;
      }
      expect(added, plan.label).toBe(1);
      expect(page.data[0]?.statusCode, plan.label).toBe(expected[plan.label]);
      expect(page.data[0]?.messageId).toBe((sent.body as { messageId: string }).messageId);
    }
  });
});

describe("demo data across restarts (file database)", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "sandbox-seed-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is seeded once, and its receiver endpoints follow the new port", async () => {
    const dbPath = path.join(dir, "demo.sqlite");
    const first = await startTestSandbox({ seed: "demo", dbPath });
    const firstUrl = first.sandbox.url;
    await first.sandbox.close({ graceMs: 0 });

    const second = await startTestSandbox({ seed: "demo", dbPath });
    try {
      expect(second.sandbox.url).not.toBe(firstUrl);
      const demo = second.sandbox.demo();
      expect(demo?.webhooks[0]?.endpoint).toBe(`${second.sandbox.url}/_sandbox/receivers/ok`);
      expect(demo?.webhooks[5]?.endpoint).toBe(CLOSED_PORT_ENDPOINT);
      expect(second.sandbox.store.stats().applications).toBe(2); // the demo application and Staging
      expect(second.sandbox.store.stats().logs).toBe(ALL_LOGS);
    } finally {
      await second.sandbox.close({ graceMs: 0 });
    }
  });

  it("a demo webhook whose endpoint was changed by hand keeps it", async () => {
    const dbPath = path.join(dir, "patched.sqlite");
    const first = await startTestSandbox({ seed: "demo", dbPath });
    const id = DEMO_WEBHOOKS[0]?.id ?? "";
    await first.admin.patchWebhook(id, { endpoint: "https://hooks.example.com/mine" });
    await first.sandbox.close({ graceMs: 0 });
    const second = await startTestSandbox({ seed: "demo", dbPath });
    try {
      expect(second.sandbox.store.getWebhook(id)?.endpoint).toBe("https://hooks.example.com/mine");
    } finally {
      await second.sandbox.close({ graceMs: 0 });
    }
  });

  it("after the demo key is rotated, /_sandbox/demo says so (409) instead of handing out a dead key", async () => {
    const s = await startTestSandbox({ seed: "demo", dbPath: path.join(dir, "rotated.sqlite") });
    try {
      await new SandboxAdmin(s.sandbox.url).rotateKey(DEMO_APPLICATION_ID);
      const answer = await requestJson(`${s.sandbox.url}/_sandbox/demo`);
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ error: { code: "demo_key_rotated" } });
    } finally {
      await s.sandbox.close({ graceMs: 0 });
    }
  });
});
