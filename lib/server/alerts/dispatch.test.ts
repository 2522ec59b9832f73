/**
 * The outbox and its dispatcher, against receivers on loopback and real databases (SQLite, and
 * PostgreSQL for two instances): a receiver answering 500, timing out or hanging is retried with
 * backoff (the wait kept in the row) and every attempt shows in the log; one that hangs holds up
 * no other destination; an alert recorded but never sent (a crash) is sent once after a
 * restart; two dispatchers on one PostgreSQL deliver each alert once per destination; and when
 * `npm run watcher` is killed mid-send, another instance sends it again with the same `webhook-id`.
 */
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Webhook } from "standardwebhooks";
import { testAlert, type AlertMessage } from "@/lib/domain/alerts/message";
import { addDestination } from "@/lib/server/alerts/destinations";
import { createDispatcher, retryDelayMs } from "@/lib/server/alerts/dispatch";
import { claimDue, enqueueAlert } from "@/lib/server/alerts/outbox";
import type { StoreContext } from "@/lib/server/store/context";
import { startReceiver, type Answer, type TestReceiver } from "@/tests/sandbox/support/receiver";
import {
  allDeliveries,
  dispatchUntilSettled,
  testDispatchSettings,
  until,
  untilSettled,
} from "@/tests/support/alert-outbox";
import { ROOT, spawnServer, type ServerProcess } from "@/tests/support/server-process";
import {
  postgresInstances,
  TEST_SECRET,
  WATCH_DATABASES,
  watchDatabases,
} from "@/tests/support/watch-databases";

const databases = watchDatabases();
const APP = "0123456789abcdef";
const SECRET = `whsec_${Buffer.from("a signing secret of the tests, 32b").toString("base64")}`;
const CLAIM = { limit: 8, perApplication: 4 };

interface Receiver extends TestReceiver {
  /** When each request arrived (epoch ms). */
  arrivals: number[];
}
const receivers: Receiver[] = [];
const processes: ServerProcess[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(processes.splice(0).map((p) => p.stop()));
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
async function receiver(answer: (index: number) => Answer): Promise<Receiver> {
  const arrivals: number[] = [];
  const started = await startReceiver(() => {
    arrivals.push(Date.now());
    return answer(arrivals.length - 1);
  });
  const withArrivals = { ...started, arrivals };
  receivers.push(withArrivals);
  return withArrivals;
}

let keys = 0;
function message(): AlertMessage {
  return testAlert({
    idempotencyKey: `alert_${++keys}_${Math.random().toString(36).slice(2)}`,
    at: new Date(),
    application: { id: APP, name: "Production" },
    destinationLabel: "Receiver",
    consoleUrl: "http://console.test/alerts",
  });
}

const addSlack = (ctx: StoreContext, label: string, target: TestReceiver) =>
  addDestination(ctx, APP, { kind: "slack", label, url: `${target.url}/slack` });
const addSigned = (ctx: StoreContext, label: string, target: TestReceiver) =>
  addDestination(ctx, APP, { kind: "webhook", label, url: `${target.url}/hook`, secret: SECRET });

const webhookIds = (target: TestReceiver) => target.requests.map((r) => r.headers["webhook-id"]);

describe("retryDelayMs", () => {
  it("doubles from the backoff with a jitter of 1 to 2, up to an hour", () => {
    expect(retryDelayMs(1000, 1, () => 0)).toBe(1000);
    expect(retryDelayMs(1000, 2, () => 0)).toBe(2000);
    expect(retryDelayMs(1000, 3, () => 0.5)).toBe(6000);
    expect(retryDelayMs(1000, 3, () => 0.999)).toBe(7996);
    expect(retryDelayMs(1000, 30, () => 0)).toBe(3_600_000);
  });
});

describe.each(WATCH_DATABASES)("the dispatcher (%s)", (kind) => {
  it("retries a receiver answering 500 with growing waits kept in the row, and the log shows each attempt", async () => {
    const ctx = await databases.fresh(kind);
    const target = await receiver((index) =>
      index < 2 ? { status: 500, body: `boom ${index + 1}` } : { status: 200, body: "ok" },
    );
    await addSlack(ctx, "Flaky", target);
    await enqueueAlert(ctx, APP, message());
    const backoffMs = 500;
    const dispatcher = createDispatcher(ctx, testDispatchSettings({ backoffMs }), "a");
    try {
      // After the first attempt the delivery waits in the outbox, its next attempt planned.
      const [waiting] = await until(
        () => allDeliveries(ctx),
        ([d]) => d!.attempts === 1 && d!.state === "pending",
      );
      expect(waiting).toMatchObject({
        statusCode: 500,
        response: "boom 1",
        error: "the receiver answered 500",
      });
      const wait = Date.parse(waiting!.nextAttemptAt!) - Date.parse(waiting!.updatedAt);
      expect(wait).toBeGreaterThanOrEqual(backoffMs);
      expect(wait).toBeLessThanOrEqual(2 * backoffMs);
      const [second] = await until(
        () => allDeliveries(ctx),
        ([d]) => d!.attempts === 2 && d!.state === "pending",
      );
      expect(second).toMatchObject({ statusCode: 500, response: "boom 2" });
      const [done] = await untilSettled(ctx);
      expect(done).toMatchObject({
        state: "delivered",
        attempts: 3,
        statusCode: 200,
        response: "ok",
        error: null,
      });
      expect(done!.nextAttemptAt).toBeNull();
    } finally {
      await dispatcher.stop();
    }
    expect(target.requests).toHaveLength(3);
    const [first, second, third] = target.arrivals;
    expect(second! - first!).toBeGreaterThanOrEqual(backoffMs);
    expect(third! - second!).toBeGreaterThanOrEqual(2 * backoffMs);
  });

  it("a receiver that times out is retried until the attempts run out, then the delivery is failed", async () => {
    const ctx = await databases.fresh(kind);
    const target = await receiver(() => ({ status: 200, delayMs: 600_000 }));
    await addSlack(ctx, "Slow", target);
    await enqueueAlert(ctx, APP, message());
    const [delivery] = await dispatchUntilSettled(
      ctx,
      testDispatchSettings({ policy: { allowPrivate: true, timeoutMs: 300 }, attempts: 3 }),
    );
    expect(delivery).toMatchObject({
      state: "failed",
      attempts: 3,
      statusCode: null,
      error: "no complete answer within 300 ms",
    });
    expect(target.requests).toHaveLength(3);
  });

  it("a destination that hangs delays no other: alerts reach the healthy one while the hanging attempt is open", async () => {
    const ctx = await databases.fresh(kind);
    const hanging = await receiver(() => ({ status: 200, delayMs: 600_000 }));
    const healthy = await receiver(() => ({ status: 200, body: "fine" }));
    await addSlack(ctx, "Hanging", hanging);
    await addSlack(ctx, "Healthy", healthy);
    const dispatcher = createDispatcher(
      ctx,
      testDispatchSettings({ policy: { allowPrivate: true, timeoutMs: 600_000 } }),
      "a",
    );
    try {
      const first = message();
      const second = message();
      await enqueueAlert(ctx, APP, first);
      await until(
        async () => healthy.requests.length,
        (n) => n === 1,
      );
      await enqueueAlert(ctx, APP, second);
      await until(
        async () => healthy.requests.length,
        (n) => n === 2,
      );
      // The receiver has its request before the dispatcher records the answer.
      const rows = await until(
        () => allDeliveries(ctx),
        (all) => all.filter((d) => d.destinationLabel === "Healthy" && d.state !== "sending").length === 2,
      );
      const hangingRows = rows.filter((d) => d.destinationLabel === "Hanging");
      expect(hangingRows.map((d) => [d.idempotencyKey, d.state, d.attempts])).toEqual([
        [first.idempotencyKey, "sending", 1],
        // One attempt at a time per destination: the second waits behind the open one.
        [second.idempotencyKey, "pending", 0],
      ]);
      expect(rows.filter((d) => d.destinationLabel === "Healthy").map((d) => d.state)).toEqual([
        "delivered",
        "delivered",
      ]);
      expect(hanging.requests).toHaveLength(1);
    } finally {
      // The hanging receiver goes away: its open attempt fails and the dispatcher can stop.
      await hanging.close();
      await dispatcher.stop();
    }
  });

  it("one application's many hanging destinations hold no other application's alert: each application has at most perApplication in flight", async () => {
    const ctx = await databases.fresh(kind);
    const NOISY = "aaaaaaaaaaaaaaaa";
    const hanging = await receiver(() => ({ status: 200, delayMs: 600_000 }));
    const healthy = await receiver(() => ({ status: 204 }));
    for (let i = 0; i < 30; i++)
      await addDestination(
        ctx,
        NOISY,
        { kind: "slack", label: `Slow ${i}`, url: `${hanging.url}/slow/${i}` },
        Date.now(),
        30,
      );
    await addSlack(ctx, "On-call", healthy);
    const settings = testDispatchSettings({
      policy: { allowPrivate: true, timeoutMs: 600_000 },
      concurrency: 8,
      perApplication: 3,
    });
    const dispatcher = createDispatcher(ctx, settings, "a");
    try {
      await enqueueAlert(ctx, NOISY, { ...message(), application: { id: NOISY, name: "Noisy" } });
      await until(
        async () => hanging.requests.length,
        (n) => n === 3,
      );
      const sentAt = Date.now();
      await enqueueAlert(ctx, APP, message());
      await until(
        async () => healthy.arrivals.length,
        (n) => n === 1,
        5000,
      );
      expect(healthy.arrivals[0]! - sentAt).toBeLessThan(2000);
      // The noisy application never had more than its share in flight, though slots were free.
      expect(hanging.requests).toHaveLength(3);
      const noisy = (await allDeliveries(ctx)).filter((d) => d.destinationLabel.startsWith("Slow"));
      expect(noisy.filter((d) => d.state === "sending")).toHaveLength(3);
      expect(noisy.filter((d) => d.state === "pending")).toHaveLength(27);
    } finally {
      await hanging.close();
      await dispatcher.stop();
    }
  });

  it("an alert recorded but never sent (the instance crashed) is sent once after a restart", async () => {
    const ctx = await databases.fresh(kind);
    const target = await receiver(() => ({ status: 204 }));
    await addSigned(ctx, "Receiver", target);
    const claimedThenCrashed = message();
    const recordedOnly = message();
    await enqueueAlert(ctx, APP, claimedThenCrashed);
    // The crashed instance had claimed it (an attempt begun), then never wrote again.
    const crashedAt = Date.now();
    expect(await claimDue(ctx, { owner: "crashed", until: crashedAt + 50 }, CLAIM, crashedAt)).toHaveLength(
      1,
    );
    await enqueueAlert(ctx, APP, recordedOnly, crashedAt + 1);
    await new Promise((resolve) => setTimeout(resolve, 60));

    const deliveries = await dispatchUntilSettled(ctx);
    expect(deliveries.map((d) => [d.idempotencyKey, d.state, d.attempts])).toEqual([
      [claimedThenCrashed.idempotencyKey, "delivered", 2],
      [recordedOnly.idempotencyKey, "delivered", 1],
    ]);
    expect(webhookIds(target)).toEqual([claimedThenCrashed.idempotencyKey, recordedOnly.idempotencyKey]);
    // Nothing is left to send: another restart sends nothing again.
    expect(await claimDue(ctx, { owner: "later", until: Date.now() + 1000 }, CLAIM)).toEqual([]);
    await dispatchUntilSettled(ctx);
    expect(target.requests).toHaveLength(2);
  });
});

describe("two instances on one PostgreSQL", () => {
  const instance = postgresInstances();

  it("two dispatchers sending one outbox deliver each alert once per destination", async () => {
    const url = await databases.freshPostgresUrl();
    const [one, two] = [await instance(url), await instance(url)];
    const first = await receiver(() => ({ status: 204 }));
    const second = await receiver(() => ({ status: 204 }));
    await addSigned(one, "First", first);
    await addSigned(one, "Second", second);
    const alerts = Array.from({ length: 20 }, () => message());
    const settings = testDispatchSettings({ concurrency: 4, tickMs: 10 });
    const a = createDispatcher(one, settings, "instance-a");
    const b = createDispatcher(two, settings, "instance-b");
    try {
      for (const alert of alerts) {
        // The same alert enqueued by both instances is recorded once.
        await Promise.all([enqueueAlert(one, APP, alert), enqueueAlert(two, APP, alert)]);
      }
      const deliveries = await untilSettled(one);
      expect(deliveries).toHaveLength(40);
      expect(deliveries.every((d) => d.state === "delivered" && d.attempts === 1)).toBe(true);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    const keys = alerts.map((alert) => alert.idempotencyKey).sort();
    expect(webhookIds(first).sort()).toEqual(keys);
    expect(webhookIds(second).sort()).toEqual(keys);
  });

  it("`npm run watcher` killed mid-send: another instance sends the alert after the lease lapses, with the same webhook-id", async () => {
    const url = await databases.freshPostgresUrl();
    const ctx = await instance(url);
    // The first request is held open (the killed instance never hears back); later ones are kept.
    const target = await receiver((index) =>
      index === 0 ? { status: 204, delayMs: 600_000 } : { status: 204 },
    );
    await addSigned(ctx, "Receiver", target);
    const alert = message();
    await enqueueAlert(ctx, APP, alert);

    const watcher = spawnServer(
      "watcher A",
      ["--import", "tsx", "--conditions=react-server", path.join(ROOT, "lib/server/watch/main.ts")],
      {
        DATABASE_URL: url,
        WATCH_SECRET: TEST_SECRET,
        SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
        HUB_BASE_URL: "http://127.0.0.1:9",
        HUB_SANDBOX: "",
        ALERTS_ALLOW_PRIVATE: "1",
        ALERTS_TIMEOUT_MS: "5000",
      },
    );
    processes.push(watcher);
    await until(
      async () => target.requests.length,
      (n) => n === 1,
      60_000,
    );
    const [sending] = await allDeliveries(ctx);
    expect(sending).toMatchObject({ state: "sending", attempts: 1 });
    watcher.kill("SIGKILL");
    await watcher.exited;

    // The killed instance's lease (ALERTS_TIMEOUT_MS + its margin) still holds: nobody sends it yet.
    expect(await claimDue(ctx, { owner: "too early", until: Date.now() + 1000 }, CLAIM)).toEqual([]);
    const { lease_until: leaseUntil } = await ctx.db
      .selectFrom("alert_deliveries")
      .select("lease_until")
      .executeTakeFirstOrThrow();
    // The clock of the instance left moves past the lease instead of the test waiting it out.
    vi.useFakeTimers({ toFake: ["Date"], now: leaseUntil + 1, shouldAdvanceTime: true });
    const [delivery] = await dispatchUntilSettled(ctx);
    expect(delivery).toMatchObject({ state: "delivered", attempts: 2, statusCode: 204 });
    expect(webhookIds(target)).toEqual([alert.idempotencyKey, alert.idempotencyKey]);
    for (const request of target.requests) {
      expect(
        new Webhook(SECRET).verify(request.body, request.headers as Record<string, string>),
      ).toMatchObject({
        data: { idempotencyKey: alert.idempotencyKey },
      });
    }
  }, 120_000);
});
