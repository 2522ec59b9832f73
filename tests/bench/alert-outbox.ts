/**
 * The outbox's measurement (issue 26; the row is built in alert-figures.ts): two `npm run watcher`
 * instances on one PostgreSQL send one outbox of signed-webhook alerts to two receivers on
 * loopback, and one instance is killed (SIGKILL) while it holds a delivery mid-send. The
 * receivers count what arrived by `webhook-id`; the log is read straight from the database.
 */
import { spawn } from "node:child_process";
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

/** What one receiver got: requests, distinct webhook-ids, and incidents (told apart by `data.at`) under two ids. */
function received(receiver: TestReceiver): OutboxReceived {
  const ids = receiver.requests.map((r) => String(r.headers["webhook-id"]));
  const idsOf = new Map<string, Set<string>>();
  receiver.requests.forEach((request, index) => {
    const at = (JSON.parse(request.body) as { data: { at: string } }).data.at;
    idsOf.set(at, (idsOf.get(at) ?? new Set()).add(ids[index]!));
  });
  return {
    requests: ids.length,
    kept: new Set(ids).size,
    splitKeys: [...idsOf.values()].filter((set) => set.size > 1).length,
  };
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
    for (const label of ["first", "second"])
      receivers[label] = await startReceiver(() => ({ status: 204, delayMs: ANSWER_DELAY_MS }));
    await runOutboxStore(env, store, {
      appId: APP,
      secret: SECRET,
      destinations: Object.entries(receivers).map(([label, r]) => ({ label, url: `${r.url}/hook` })),
      incidents: 0,
    });
    const settings = {
      hubBaseUrl: options.hubBaseUrl,
      intervalSeconds: 60,
      leaseSeconds: 10,
      concurrency: 2,
      backfill: "10000,7d",
    };
    const alerts = { ALERTS_ALLOW_PRIVATE: "1", ALERTS_TIMEOUT_MS: String(TIMEOUT_MS) };
    for (const name of ["outbox instance A", "outbox instance B"])
      watchers.push(await startWatcherProcess(env, store, settings, name, alerts));
    reader = await storeReader(store);
    env.log(`outbox: ${options.incidents} incidents to 2 destinations, two instances sending`);
    await runOutboxStore(env, store, {
      appId: APP,
      secret: SECRET,
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
        destinations: Object.fromEntries(Object.entries(receivers).map(([label, r]) => [label, received(r)])),
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
