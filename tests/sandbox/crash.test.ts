/**
 * No loss: kill the sandbox with SIGKILL during a burst, start it again on the same
 * database, and every message ends with exactly one log per active webhook — none lost, none
 * doubled. Also: a graceful stop leaves unfinished deliveries queued for the next start.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HubApi, SandboxAdmin, waitFor } from "./support/clients";
import { spawnSandbox, type SandboxProcess } from "./support/child";
import { startReceiver, type TestReceiver } from "./support/receiver";
import { startTestSandbox } from "./support/sandbox";

let dir: string;
let receiver: TestReceiver;
const processes: SandboxProcess[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sandbox-crash-"));
  // A slow customer endpoint, so deliveries are still queued and in flight when the kill comes.
  receiver = await startReceiver((request) => ({
    status: request.path === "/fails" ? 503 : 200,
    delayMs: 60,
  }));
});

afterEach(() => {
  for (const p of processes.splice(0)) p.kill("SIGKILL");
});

afterAll(async () => {
  await receiver.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Counts {
  messages: number;
  queued: number;
  done: number;
  attempted: number;
  logs: number;
}

function countsIn(dbPath: string): Counts {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM messages) AS messages,
                (SELECT COUNT(*) FROM deliveries WHERE state = 'queued') AS queued,
                (SELECT COUNT(*) FROM deliveries WHERE state = 'done') AS done,
                (SELECT COUNT(*) FROM deliveries WHERE state = 'queued' AND attempts > 0) AS attempted,
                (SELECT COUNT(*) FROM webhook_logs) AS logs`,
      )
      .get() as Counts;
  } finally {
    db.close();
  }
}

describe("crash safety", () => {
  it("SIGKILL mid-burst, restart on the same database: exactly one log per message and active webhook", async () => {
    const dbPath = path.join(dir, "crash.sqlite");
    const first = await spawnSandbox({ SANDBOX_DB: dbPath });
    processes.push(first);
    const admin = new SandboxAdmin(first.url);
    const app = await admin.application("sms");
    const active = [
      await admin.createWebhook(app.id, { endpoint: `${receiver.url}/ok` }),
      await admin.createWebhook(app.id, { endpoint: `${receiver.url}/fails` }),
    ];
    const inactive = await admin.createWebhook(app.id, {
      endpoint: `${receiver.url}/inactive`,
      active: false,
    });

    // The burst: 10 clients send until the process dies under them.
    const api = new HubApi(first.url, app.apiKey);
    const accepted: string[] = [];
    let dead = false;
    const client = async (n: number) => {
      for (let i = 0; !dead && i < 100; i++) {
        try {
          const answer = await api.send("sms", {
            from: app.channel.id,
            to: `55${n}${i}`,
            content: { text: `burst ${n}.${i}` },
          });
          if (answer.status === 202) accepted.push((answer.body as { messageId: string }).messageId);
        } catch {
          return; // the sandbox is gone
        }
      }
    };
    const clients = Array.from({ length: 10 }, (_, n) => client(n));

    // Kill once some deliveries are logged and sends are still coming in.
    await waitFor(
      "some logs before the kill",
      async () => ((await admin.stats()).logs >= 30 ? true : undefined),
      20_000,
      10,
    );
    first.kill("SIGKILL");
    dead = true;
    expect((await first.exited).signal).toBe("SIGKILL");
    await Promise.all(clients);

    const atKill = countsIn(dbPath);
    expect(atKill.queued, "deliveries were still queued at the kill").toBeGreaterThan(0);
    expect(atKill.attempted, "deliveries were in flight at the kill").toBeGreaterThan(0);
    expect(atKill.logs).toBe(atKill.done);
    expect(accepted.length).toBeGreaterThan(0);
    expect(atKill.messages).toBeGreaterThanOrEqual(accepted.length);

    const second = await spawnSandbox({ SANDBOX_DB: dbPath });
    processes.push(second);
    const admin2 = new SandboxAdmin(second.url);
    await waitFor(
      "every delivery to finish after the restart",
      async () => {
        const stats = await admin2.stats();
        return stats.queuedDeliveries === 0 && stats.inFlightDeliveries === 0 ? stats : undefined;
      },
      30_000,
      100,
    );
    second.kill("SIGTERM");
    expect((await second.exited).code).toBe(0);

    const db = new Database(dbPath, { readonly: true });
    try {
      const messages = (db.prepare("SELECT id FROM messages").all() as Array<{ id: string }>).map(
        (r) => r.id,
      );
      expect(messages.length).toBe(atKill.messages);
      expect(new Set(messages)).toEqual(new Set([...messages, ...accepted])); // every 202 was stored
      const perPair = db
        .prepare(
          `SELECT m.id AS messageId, w.id AS webhookId,
                  (SELECT COUNT(*) FROM webhook_logs l WHERE l.message_id = m.id AND l.webhook_id = w.id) AS logs
           FROM messages m CROSS JOIN webhooks w WHERE w.active = 1`,
        )
        .all() as Array<{ logs: number }>;
      expect(perPair.length).toBe(messages.length * active.length);
      expect(perPair.filter((p) => p.logs !== 1)).toEqual([]);
      const inactiveLogs = db
        .prepare("SELECT COUNT(*) AS n FROM webhook_logs WHERE webhook_id = ?")
        .get(inactive.id) as { n: number };
      expect(inactiveLogs.n).toBe(0);
      const counters = db
        .prepare(
          `SELECT w.id, w.number_of_errors AS errors, w.log_count AS logCount,
                  (SELECT COUNT(*) FROM webhook_logs l WHERE l.webhook_id = w.id AND l.status = 'Failed') AS failed,
                  (SELECT COUNT(*) FROM webhook_logs l WHERE l.webhook_id = w.id) AS logs
           FROM webhooks w`,
        )
        .all() as Array<{ errors: number; failed: number; logCount: number; logs: number }>;
      for (const c of counters) {
        expect(c.errors).toBe(c.failed);
        expect(c.logCount).toBe(c.logs);
      }
      expect(countsIn(dbPath).queued).toBe(0);
    } finally {
      db.close();
    }
    // The endpoint saw every (message, webhook) at least once; those in flight at the kill, twice.
    const seen = new Set(
      receiver.requests.map((r) => `${r.path} ${(JSON.parse(r.body) as { messageId: string }).messageId}`),
    );
    expect(seen.size).toBe(atKill.messages * active.length);
  }, 90_000);

  it("a graceful stop leaves unfinished deliveries queued; the next start sends them", async () => {
    const dbPath = path.join(dir, "graceful.sqlite");
    const slow = await startReceiver(() => ({ status: 200, delayMs: 1500 }));
    try {
      const first = await startTestSandbox({ dbPath, deliveryTimeoutMs: 5000 });
      const app = await first.admin.application();
      const webhook = await first.admin.createWebhook(app.id, { endpoint: `${slow.url}/hook` });
      for (let i = 0; i < 3; i++)
        await first
          .api(app.apiKey)
          .send("whatsapp", { from: app.channel.id, to: "1", content: { text: `${i}` } });
      await waitFor("deliveries in flight", async () => (slow.requests.length >= 3 ? true : undefined));
      await first.sandbox.close({ graceMs: 50 });
      expect(countsIn(dbPath)).toMatchObject({ messages: 3, queued: 3, logs: 0 });

      const second = await startTestSandbox({ dbPath, deliveryTimeoutMs: 5000 });
      try {
        await second.sandbox.whenIdle();
        expect(countsIn(dbPath)).toMatchObject({ queued: 0, logs: 3 });
        const logs = second.sandbox.store.listLogs(second.sandbox.store.getWebhook(webhook.id)!, {
          offset: 0,
          limit: 50,
        });
        expect(logs.rows.every((l) => l.statusCode === 200)).toBe(true);
      } finally {
        await second.sandbox.close({ graceMs: 0 });
      }
    } finally {
      await slow.close();
    }
  });
});
