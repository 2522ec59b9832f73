/**
 * The outbox's measurement (issues 26 and 37; the row is built in alert-figures.ts): two `npm run
 * watcher` instances on one PostgreSQL send one outbox of alerts to receivers on loopback, one per
 * kind of destination over HTTP (two signed webhooks, PagerDuty, Teams, Discord), and one instance
 * is killed (SIGKILL) while it holds deliveries mid-send. The receivers count what arrived by each
 * kind's key (`webhook-id`, PagerDuty's `dedup_key`; Teams and Discord carry no key, so by the
 * alert's time); the log is read straight from the database.
 */
import { spawn } from "node:child_process";
import type { AddDestination } from "@/lib/domain/inputs/alert-destination";
import path from "node:path";
import { postgresServer } from "../support/postgres-server";
import { ROOT, type ServerProcess } from "../support/server-process";
import { startReceiver, type TestReceiver } from "../sandbox/support/receiver";
import { outboxInstancesFigure, type OutboxReceived } from "./alert-figures";
import type { Figure } from "./report";
import {
  baseEnv,
  NODE_ARGS,
  startWatcherProcess,
  storeReader,
  type StoreTarget,
  type WatchEnv,
} from "./watching";

const APP = "0123456789abcdef";
const SECRET = `whsec_${Buffer.from("the bench's signing secret, 32 b").toString("base64")}`;
/** Each receiver answers this late, so both instances spend their time mid-send. */
const ANSWER_DELAY_MS = 200;
/** ALERTS_TIMEOUT_MS of the instances: their leases last this plus the dispatcher's margin. */
const TIMEOUT_MS = 2000;
const LEASE_SECONDS = TIMEOUT_MS / 1000 + 15;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runOutboxStore(env: WatchEnv, store: StoreTarget, input: object): Promise<void> {
  const child = spawn(
    process.execPath,
    [...NODE_ARGS, path.join(ROOT, "tests/bench/alert-outbox-store.ts"), JSON.stringify(input)],
    { cwd: ROOT, env: { ...process.env, ...baseEnv(env, store) }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`alert-outbox-store failed (${code}): ${out.slice(-2000)}`);
}

type Kind = "webhook" | "pagerduty" | "teams" | "discord";

/** The destinations, by the label each receiver is counted under, and how each real service answers. */
const RECEIVERS: Array<{ label: string; kind: Kind; status: number; body?: string }> = [
  { label: "first", kind: "webhook", status: 204 },
  { label: "second", kind: "webhook", status: 204 },
  {
    label: "pagerduty",
    kind: "pagerduty",
    status: 202,
    body: '{"status":"success","message":"Event processed"}',
  },
  { label: "teams", kind: "teams", status: 202 },
  { label: "discord", kind: "discord", status: 204 },
];

/**
 * One request's key (what a receiver drops repeats by) and the alert's time (which tells the
 * incidents apart): the signed webhook's `webhook-id` and `data.at`, PagerDuty's `dedup_key` and
 * `payload.timestamp`; Teams and Discord have no key, only the alert's time (the card's last
 * line, the embed's timestamp).
 */
function keyOf(kind: Kind, request: TestReceiver["requests"][number]): { key: string; at: string } {
  const body: unknown = JSON.parse(request.body);
  switch (kind) {
    case "webhook":
      return { key: String(request.headers["webhook-id"]), at: (body as { data: { at: string } }).data.at };
    case "pagerduty": {
      const event = body as { dedup_key: string; payload: { timestamp: string } };
      return { key: event.dedup_key, at: event.payload.timestamp };
    }
    case "teams": {
      const card = (body as { attachments: Array<{ content: { body: Array<{ text?: string }> } }> })
        .attachments[0]!;
      const at = /\d{4}-\d\d-\d\dT[\d:.]+Z$/.exec(card.content.body.at(-1)!.text ?? "")![0];
      return { key: at, at };
    }
    case "discord": {
      const at = (body as { embeds: Array<{ timestamp: string }> }).embeds[0]!.timestamp;
      return { key: at, at };
    }
  }
}

/** What one receiver got: requests, distinct keys, and incidents (told apart by their time) under two keys. */
function received(kind: Kind, receiver: TestReceiver): OutboxReceived {
  const keys = receiver.requests.map((request) => keyOf(kind, request));
  const keysOf = new Map<string, Set<string>>();
  for (const { key, at } of keys) keysOf.set(at, (keysOf.get(at) ?? new Set()).add(key));
  return {
    requests: keys.length,
    kept: new Set(keys.map((k) => k.key)).size,
    splitKeys: [...keysOf.values()].filter((set) => set.size > 1).length,
  };
}

const ROUTING_KEY = "B3NCHR0UT1NGKEY0123456789abcdefA";

function destinationOf(kind: Kind, label: string, receiver: TestReceiver): AddDestination {
  switch (kind) {
    case "webhook":
      return { kind, label, url: `${receiver.url}/hook`, secret: SECRET };
    case "pagerduty":
      return { kind, label, routingKey: ROUTING_KEY, region: "us" };
    case "teams":
      return { kind, label, url: `${receiver.url}/workflows/bench` };
    case "discord":
      return { kind, label, url: `${receiver.url}/api/webhooks/1/bench` };
  }
}

export async function measureOutboxInstances(options: {
  env: WatchEnv;
  /** Where the instances' (idle) watchers would call the hub. */
  hubBaseUrl: string;
  incidents: number;
}): Promise<Figure[]> {
  const { env } = options;
  const postgres = await postgresServer();
  const watchers: ServerProcess[] = [];
  const receivers: Record<string, TestReceiver> = {};
  let reader: Awaited<ReturnType<typeof storeReader>> | undefined;
  try {
    const store: StoreTarget = { kind: "postgres", url: await postgres.createDatabase("bench_outbox") };
    for (const { label, status, body } of RECEIVERS)
      receivers[label] = await startReceiver(() => ({ status, body, delayMs: ANSWER_DELAY_MS }));
    await runOutboxStore(env, store, {
      appId: APP,
      destinations: RECEIVERS.map(({ label, kind }) => destinationOf(kind, label, receivers[label]!)),
      incidents: 0,
    });
    const settings = {
      hubBaseUrl: options.hubBaseUrl,
      intervalSeconds: 60,
      leaseSeconds: 10,
      concurrency: 2,
      backfill: "10000,7d",
    };
    const alerts = {
      ALERTS_ALLOW_PRIVATE: "1",
      ALERTS_TIMEOUT_MS: String(TIMEOUT_MS),
      ALERTS_PAGERDUTY_EVENTS_URL: `${receivers.pagerduty!.url}/v2/enqueue`,
    };
    for (const name of ["outbox instance A", "outbox instance B"])
      watchers.push(await startWatcherProcess(env, store, settings, name, alerts));
    reader = await storeReader(store);
    env.log(
      `outbox: ${options.incidents} incidents to ${RECEIVERS.length} destinations, two instances sending`,
    );
    await runOutboxStore(env, store, {
      appId: APP,
      destinations: [],
      incidents: options.incidents,
    });

    const a = watchers[0]!;
    let sendingAtKill = 0;
    for (
      const deadline = Date.now() + 30_000;
      sendingAtKill === 0 && Date.now() < deadline;
      await sleep(10)
    ) {
      const [row] = await reader.all<{ n: number | string }>(
        `select count(*) as n from alert_deliveries where state = 'sending' and lease_owner like '%:${a.pid}:%' and lease_until > ${Date.now()}`,
      );
      sendingAtKill = Number(row?.n ?? 0);
    }
    a.kill("SIGKILL");
    await a.exited;
    env.log(
      `outbox: instance A killed while sending ${sendingAtKill} deliveries; waiting for its leases to lapse`,
    );
    for (const deadline = Date.now() + (LEASE_SECONDS + 60) * 1000; Date.now() < deadline; await sleep(250)) {
      const [row] = await reader.all<{ n: number | string }>(
        "select count(*) as n from alert_deliveries where state in ('pending', 'sending')",
      );
      if (Number(row?.n) === 0) break;
    }
    const [log] = await reader.all<{ rows: number | string; delivered: number | string }>(
      "select count(*) as rows, sum(case when state = 'delivered' then 1 else 0 end) as delivered from alert_deliveries",
    );
    return [
      outboxInstancesFigure({
        incidents: options.incidents,
        destinations: Object.fromEntries(
          RECEIVERS.map(({ label, kind }) => [label, received(kind, receivers[label]!)]),
        ),
        sendingAtKill,
        logRows: Number(log?.rows ?? 0),
        delivered: Number(log?.delivered ?? 0),
        leaseSeconds: LEASE_SECONDS,
      }),
    ];
  } finally {
    await reader?.close();
    await Promise.all(watchers.map((w) => w.stop()));
    await Promise.all(Object.values(receivers).map((r) => r.close()));
    await postgres.remove();
  }
}
