/**
 * The watch's measurements (issue 25; the rows are built in watch-figures.ts): the overview of a
 * console over a large store ÷ over a small one, and the watcher (`lib/server/watch/main.ts`, as
 * `npm run watcher` runs it) polling the sandbox through a proxy that counts the hub calls by path.
 * Stores are filled and watches added by watch-store.ts, through the store's own functions; the
 * bench reads the watcher's progress straight from the database (SQLite file or PostgreSQL).
 */
import { randomUUID } from "node:crypto";
import { spawn } from "node:child_process";
import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { signIn, type CreatedWebhook } from "../support/hub";
import { postgresServer } from "../support/postgres-server";
import {
  ROOT,
  spawnServer,
  startConsoleProcess,
  type Server,
  type ServerProcess,
} from "../support/server-process";
import { peakRssBytes, rssBytes, treeTotal } from "./servers";
import { rotationOrder } from "./stats";
import {
  backfillFigure,
  instancesFigures,
  newLogsFigure,
  overviewFigure,
  steadyFigure,
  watcherMemoryFigure,
  type OverviewSide,
  type WatchCalls,
} from "./watch-figures";
import type { Figure } from "./report";

type Log = (line: string) => void;

/** The environment every watch process of the bench shares: the key's application id and the sealing secret. */
export interface WatchEnv {
  sessionSecret: string;
  watchSecret: string;
  tmp: string;
  log: Log;
}

export const NODE_ARGS = ["--import", "tsx", "--conditions=react-server"];

export function baseEnv(env: WatchEnv, store: StoreTarget): Record<string, string> {
  return {
    SESSION_SECRET: env.sessionSecret,
    WATCH_SECRET: env.watchSecret,
    HUB_SANDBOX: "",
    ...(store.kind === "postgres" ? { DATABASE_URL: store.url } : { WATCH_DB: store.path, DATABASE_URL: "" }),
  };
}

export type StoreTarget = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };

/** Runs watch-store.ts (`watch` or `fill`) on `store`; answers its seconds. */
export async function runWatchStore(
  env: WatchEnv,
  store: StoreTarget,
  command: "watch" | "fill",
  input: { apiKey: string; webhooks: CreatedWebhook[]; logsPerWebhook?: number; spacingMs?: number },
): Promise<number> {
  const answer = await runStoreScript<{ seconds: number }>(env, store, "watch-store.ts", [
    command,
    JSON.stringify(input),
  ]);
  return answer.seconds;
}

/** Runs a script of tests/bench/ with the store's server modules, on `store`; answers its last line, parsed. */
export async function runStoreScript<T>(
  env: WatchEnv,
  store: StoreTarget,
  script: string,
  args: string[],
): Promise<T> {
  const child = spawn(process.execPath, [...NODE_ARGS, path.join(ROOT, "tests/bench", script), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...baseEnv(env, store) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`${script} ${args[0] ?? ""} failed (${code}): ${out.slice(-2000)}`);
  return JSON.parse(out.trim().split("\n").at(-1)!) as T;
}

/** What a watcher process is started with, beyond its store. */
export interface WatcherSettings {
  hubBaseUrl: string;
  intervalSeconds: number;
  leaseSeconds: number;
  concurrency: number;
  backfill: string;
}

/** `lib/server/watch/main.ts` on `store`, started and running (it said "polling as"); `extraEnv` on top. */
export async function startWatcherProcess(
  env: WatchEnv,
  store: StoreTarget,
  settings: WatcherSettings,
  name: string,
  extraEnv: Record<string, string> = {},
): Promise<ServerProcess> {
  const watcher = spawnServer(name, [...NODE_ARGS, path.join(ROOT, "lib/server/watch/main.ts")], {
    ...baseEnv(env, store),
    HUB_BASE_URL: settings.hubBaseUrl,
    WATCH_INTERVAL_SECONDS: String(settings.intervalSeconds),
    WATCH_LEASE_SECONDS: String(settings.leaseSeconds),
    WATCH_CONCURRENCY: String(settings.concurrency),
    WATCH_BACKFILL: settings.backfill,
    // The budget is the hub's rate limit, which the sandbox does not impose: not what is measured here.
    WATCH_KEY_REQUESTS_PER_MINUTE: "100000",
    ...extraEnv,
  });
  const deadline = Date.now() + 60_000;
  while (!watcher.output().includes("[watcher] polling as")) {
    if (Date.now() > deadline || watcher.output().includes("Refusing to start")) {
      await watcher.stop();
      throw new Error(`the ${name} did not start:\n${watcher.output()}`);
    }
    await sleep(100);
  }
  return watcher;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads the store the way the bench needs: a few aggregate queries, no parameters but ids it made. */
export interface StoreReader {
  all<T>(query: string): Promise<T[]>;
  close(): Promise<void>;
}

export async function storeReader(store: StoreTarget): Promise<StoreReader> {
  if (store.kind === "sqlite") {
    const db = new Database(store.path, { readonly: true, fileMustExist: true });
    db.pragma("busy_timeout = 5000");
    return {
      all: async <T>(query: string) => db.prepare(query).all() as T[],
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: store.url });
  await client.connect();
  return {
    all: async <T>(query: string) => (await client.query(query)).rows as T[],
    close: () => client.end(),
  };
}

const idList = (ids: readonly string[]) => ids.map((id) => `'${id.replace(/[^0-9a-f-]/gi, "")}'`).join(",");

/** Waits until every one of `ids` has been polled and holds its history (no backfill left). */
async function allRead(reader: StoreReader, ids: readonly string[], timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await reader.all<{ n: number | string }>(
      `select count(*) as n from watch_state where webhook_id in (${idList(ids)}) and polled_at is not null and tail_offset is null`,
    );
    if (Number(row?.n) === ids.length) return;
    if (Date.now() > deadline)
      throw new Error(`${what}: ${row?.n} of ${ids.length} read within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

/** Upstream calls counted by the proxy (bare-proxy.ts), by path. */
export async function proxyCalls(proxyUrl: string): Promise<Record<string, number>> {
  const response = await fetch(`${proxyUrl}/_bare/calls`);
  return (await response.json()) as Record<string, number>;
}

/** The calls on these webhooks between two readings of the proxy's counts. */
export function callsOn(
  ids: readonly string[],
  before: Record<string, number>,
  after: Record<string, number>,
): WatchCalls {
  const delta = (p: string) => (after[p] ?? 0) - (before[p] ?? 0);
  let webhook = 0;
  let logs = 0;
  for (const id of ids) {
    webhook += delta(`/v1/organization/webhook/${id}`);
    logs += delta(`/v1/organization/webhook/${id}/webhook-log`);
  }
  return { webhook, logs };
}

/** Every call the proxy counted. */
export const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** Messages sent through the hub's API, `concurrency` at a time: each adds a log to every webhook of the application. */
export async function sendMessages(
  sandboxUrl: string,
  app: { apiKey: string; channel: { id: string; kind: string } },
  count: number,
  concurrency = 8,
): Promise<void> {
  let next = 0;
  const sender = async () => {
    while (next < count) {
      const i = next++;
      const response = await fetch(`${sandboxUrl}/v1/communication/${app.channel.kind}/message`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": app.apiKey },
        body: JSON.stringify({ from: app.channel.id, to: "5511999990000", content: { text: `watch ${i}` } }),
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`send message → HTTP ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, sender));
}

/** Every log id the sandbox holds for these webhooks, read from its SQLite file. */
function hubIds(sandboxDb: string, ids: readonly string[]): Map<string, string[]> {
  const db = new Database(sandboxDb, { readonly: true });
  try {
    const rows = db
      .prepare(`select webhook_id, lower(id) as id from webhook_logs where webhook_id in (${idList(ids)})`)
      .all() as Array<{ webhook_id: string; id: string }>;
    return groupIds(rows);
  } finally {
    db.close();
  }
}

function groupIds(rows: ReadonlyArray<{ webhook_id: string; id: string }>): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const row of rows) by.set(row.webhook_id, [...(by.get(row.webhook_id) ?? []), row.id]);
  for (const list of by.values()) list.sort();
  return by;
}

/** The webhooks whose stored ids differ from the hub's. */
async function mismatchedIds(reader: StoreReader, sandboxDb: string, ids: readonly string[]) {
  const hub = hubIds(sandboxDb, ids);
  const stored = groupIds(
    await reader.all<{ webhook_id: string; id: string }>(
      `select webhook_id, id from watch_logs where webhook_id in (${idList(ids)})`,
    ),
  );
  const same = (id: string) => (hub.get(id) ?? []).join() === (stored.get(id) ?? []).join();
  return {
    mismatched: ids.filter((id) => !same(id)).length,
    storedLogs: [...stored.values()].reduce((n, list) => n + list.length, 0),
  };
}

// ---- the overview ---------------------------------------------------------------------------

/** Time to the first byte and to the last, of one GET. */
export function timedGet(
  url: string,
  cookie: string,
): Promise<{ status: number; ttfbMs: number; totalMs: number; body: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let ttfbMs = 0;
    const chunks: Buffer[] = [];
    const req = http.get(url, { headers: { cookie } }, (res) => {
      res.on("data", (chunk: Buffer) => {
        if (chunks.length === 0) ttfbMs = performance.now() - started;
        chunks.push(chunk);
      });
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          ttfbMs,
          totalMs: performance.now() - started,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/** What the comparisons of a console over a small store and over a large one (the overview, /metrics) are given. */
export interface StoreScaleOptions {
  env: WatchEnv;
  apiKey: string;
  /** A counting proxy in front of the sandbox: the consoles' hub. */
  proxyUrl: string;
  ports: [number, number];
  sides: { small: { webhooks: number; logs: number }; large: { webhooks: number; logs: number } };
  samples: number;
}

/**
 * A console (`WATCH_IN_CONSOLE=0`) on `port` over a new SQLite store `<file>.sqlite`
 * filled with `side`'s watches and logs (one a minute, newest now, one in four failed), its
 * environment `extraEnv` on top; answers it, the watches and the fill's seconds.
 */
export async function consoleOverFilledStore(
  options: StoreScaleOptions,
  port: number,
  side: { webhooks: number; logs: number },
  names: { file: string; server: string },
  extraEnv: Record<string, string> = {},
) {
  const { env } = options;
  const store: StoreTarget = { kind: "sqlite", path: path.join(env.tmp, `${names.file}.sqlite`) };
  const webhooks = Array.from({ length: side.webhooks }, (_, n) => ({
    id: randomUUID(),
    endpoint: `https://hooks.example.com/customer/${n + 1}`,
  }));
  env.log(`${names.server}: filling a store with ${side.webhooks} watches and ${side.logs} logs`);
  const seconds = await runWatchStore(env, store, "fill", {
    apiKey: options.apiKey,
    webhooks,
    logsPerWebhook: side.logs / side.webhooks,
    spacingMs: 60_000,
  });
  env.log(`${names.server}: filled in ${seconds.toFixed(1)} s`);
  const server = await startConsoleProcess({
    port,
    hubBaseUrl: options.proxyUrl,
    sessionSecret: env.sessionSecret,
    name: names.server,
    env: { ...baseEnv(env, store), HUB_SANDBOX: "1", WATCH_IN_CONSOLE: "0", ...extraEnv },
  });
  return { server, webhooks, seconds };
}

export async function measureOverview(options: StoreScaleOptions): Promise<Figure> {
  const { log } = options.env;
  const names = ["small", "large"] as const;
  const consoles: Array<{
    server: Server;
    name: (typeof names)[number];
    cookie: string;
    last: number;
  }> = [];
  let fillSeconds = 0;
  try {
    for (const [i, name] of names.entries()) {
      const { server, webhooks, seconds } = await consoleOverFilledStore(
        options,
        options.ports[i]!,
        options.sides[name],
        {
          file: `overview-${name}`,
          server: `console over the ${name} watch store`,
        },
      );
      if (name === "large") fillSeconds = seconds;
      consoles.push({
        server,
        name,
        cookie: await signIn(server.url, options.apiKey),
        last: webhooks.length,
      });
    }
    const url = (c: (typeof consoles)[number]) => `${c.server.url}/overview`;
    for (const c of consoles) {
      for (let i = 0; i < 5; i++) {
        const answer = await timedGet(url(c), c.cookie);
        const all = `${c.last} watched webhooks, worst first.`;
        if (answer.status !== 200 || !answer.body.includes(all))
          throw new Error(`the ${c.name} overview answered ${answer.status} without "${all}"`);
      }
    }
    const before = await proxyCalls(options.proxyUrl);
    const measured: Record<(typeof names)[number], OverviewSide> = {
      small: { ...options.sides.small, ttfbMs: [], totalMs: [], apiMs: [] },
      large: { ...options.sides.large, ttfbMs: [], totalMs: [], apiMs: [] },
    };
    log(`watch overview: ${options.samples} requests per side, in turns`);
    for (const index of rotationOrder(2, options.samples)) {
      const c = consoles[index]!;
      const answer = await timedGet(url(c), c.cookie);
      const api = await timedGet(`${c.server.url}/api/watches`, c.cookie);
      if (answer.status !== 200 || api.status !== 200)
        throw new Error(`the ${c.name} overview answered ${answer.status}, its API ${api.status}`);
      measured[c.name].ttfbMs.push(answer.ttfbMs);
      measured[c.name].totalMs.push(answer.totalMs);
      measured[c.name].apiMs.push(api.totalMs);
    }
    const upstreamCalls = total(await proxyCalls(options.proxyUrl)) - total(before);
    return overviewFigure({ ...measured, upstreamCalls, fillSeconds });
  } finally {
    await Promise.all(consoles.map((c) => c.server.stop()));
  }
}

// ---- the watcher -------------------------------------------------------------------------------

/** What the sandbox holds for the watcher's figures (made before it is filled). */
export interface WatcherFixture {
  sandboxUrl: string;
  sandboxDb: string;
  /** Healthy webhooks with a short history, under one key: steady state, memory, instances. */
  steady: { apiKey: string; webhooks: CreatedWebhook[] };
  /** Webhooks that receive new messages while watched, under their own key. */
  fresh: { apiKey: string; channel: { id: string; kind: string }; webhooks: CreatedWebhook[] };
  /** One webhook with a long history, for the backfill. */
  backfill: { apiKey: string; webhook: CreatedWebhook; logs: number };
}

export async function measureWatcher(options: {
  env: WatchEnv;
  fixture: WatcherFixture;
  countingProxyUrl: string;
  farProxyUrl: string;
  delayMs: number;
  intervalSeconds: number;
  steadyIntervals: number;
  newMessages: number;
}): Promise<Figure[]> {
  const { env, fixture } = options;
  const { log } = env;
  const figures: Figure[] = [];
  const store: StoreTarget = { kind: "sqlite", path: path.join(env.tmp, "watcher.sqlite") };
  const steadyIds = fixture.steady.webhooks.map((w) => w.id);
  const freshIds = fixture.fresh.webhooks.map((w) => w.id);
  await runWatchStore(env, store, "watch", fixture.steady);
  await runWatchStore(env, store, "watch", fixture.fresh);
  const settings = { concurrency: 4, backfillCount: 10_000, bodyCapBytes: 4096 };
  const watcher = await startWatcherProcess(
    env,
    store,
    {
      hubBaseUrl: options.countingProxyUrl,
      intervalSeconds: options.intervalSeconds,
      leaseSeconds: 30,
      concurrency: settings.concurrency,
      backfill: `${settings.backfillCount},7d`,
    },
    "watcher",
  );
  const reader = await storeReader(store);
  try {
    log(`watcher: ${steadyIds.length + freshIds.length} webhooks watched, waiting for their first reads`);
    await allRead(reader, [...steadyIds, ...freshIds], 180_000, "watcher");
    await sleep(options.intervalSeconds * 1000);
    const windowSeconds = options.intervalSeconds * options.steadyIntervals;
    log(`watcher: steady state over ${windowSeconds} s`);
    const before = await proxyCalls(options.countingProxyUrl);
    await sleep(windowSeconds * 1000);
    const after = await proxyCalls(options.countingProxyUrl);
    figures.push(
      steadyFigure({
        webhooks: steadyIds.length,
        intervalSeconds: options.intervalSeconds,
        windowSeconds,
        calls: callsOn(steadyIds, before, after),
      }),
    );

    log(`watcher: ${options.newMessages} new messages to ${freshIds.length} webhooks`);
    const freshBefore = await proxyCalls(options.countingProxyUrl);
    await sendMessages(fixture.sandboxUrl, fixture.fresh, options.newMessages);
    const deadline = Date.now() + 120_000;
    while ((await mismatchedIds(reader, fixture.sandboxDb, freshIds)).mismatched > 0) {
      if (Date.now() > deadline) throw new Error("the watcher did not store the new logs within 120 s");
      await sleep(200);
    }
    figures.push(
      newLogsFigure({
        webhooks: freshIds.length,
        newLogs: options.newMessages * freshIds.length,
        calls: callsOn(freshIds, freshBefore, await proxyCalls(options.countingProxyUrl)),
      }),
    );
    figures.push(
      watcherMemoryFigure({
        webhooks: steadyIds.length + freshIds.length,
        peakRssBytes: treeTotal(watcher.pid, peakRssBytes) ?? Number.NaN,
        rssBytes: treeTotal(watcher.pid, rssBytes) ?? Number.NaN,
        settings,
      }),
    );
  } finally {
    await reader.close();
    await watcher.stop();
  }
  figures.push(await measureBackfill(options));
  return figures;
}

async function measureBackfill(options: {
  env: WatchEnv;
  fixture: WatcherFixture;
  farProxyUrl: string;
  delayMs: number;
}): Promise<Figure> {
  const { env } = options;
  const { backfill } = options.fixture;
  const store: StoreTarget = { kind: "sqlite", path: path.join(env.tmp, "backfill.sqlite") };
  const concurrency = 4;
  // An empty store first, so the watcher is polling when the watch arrives.
  await runWatchStore(env, store, "watch", { apiKey: backfill.apiKey, webhooks: [] });
  const watcher = await startWatcherProcess(
    env,
    store,
    {
      hubBaseUrl: options.farProxyUrl,
      intervalSeconds: 60,
      leaseSeconds: 30,
      concurrency,
      backfill: `${backfill.logs},30d`,
    },
    "backfilling watcher",
  );
  const reader = await storeReader(store);
  try {
    env.log(`watcher: backfilling ${backfill.logs} logs, hub ${options.delayMs} ms away`);
    const before = await proxyCalls(options.farProxyUrl);
    await runWatchStore(env, store, "watch", { apiKey: backfill.apiKey, webhooks: [backfill.webhook] });
    await allRead(reader, [backfill.webhook.id], 600_000, "backfill");
    const calls = callsOn([backfill.webhook.id], before, await proxyCalls(options.farProxyUrl));
    const [row] = await reader.all<{ created_at: number; polled_at: number; stored_logs: number }>(
      "select w.created_at, s.polled_at, s.stored_logs from watches w join watch_state s using (webhook_id) " +
        `where w.webhook_id in (${idList([backfill.webhook.id])})`,
    );
    if (!row || Number(row.stored_logs) !== backfill.logs)
      throw new Error(`the backfill stored ${row?.stored_logs} of ${backfill.logs} logs`);
    return backfillFigure({
      logs: backfill.logs,
      delayMs: options.delayMs,
      concurrency,
      seconds: (Number(row.polled_at) - Number(row.created_at)) / 1000,
      calls,
    });
  } finally {
    await reader.close();
    await watcher.stop();
  }
}

// ---- two instances on one PostgreSQL -------------------------------------------------------

export async function measureInstances(options: {
  env: WatchEnv;
  fixture: WatcherFixture;
  countingProxyUrl: string;
  intervalSeconds: number;
  leaseSeconds: number;
  intervals: number;
  newMessages: number;
  /** How many of the fixture's steady webhooks to watch (with its fresh ones). */
  webhooks: number;
}): Promise<Figure[]> {
  const { env } = options;
  const { log } = env;
  const fixture = {
    ...options.fixture,
    steady: {
      ...options.fixture.steady,
      webhooks: options.fixture.steady.webhooks.slice(0, options.webhooks),
    },
  };
  const postgres = await postgresServer();
  const watchers: ServerProcess[] = [];
  let reader: StoreReader | undefined;
  try {
    const store: StoreTarget = { kind: "postgres", url: await postgres.createDatabase("bench_watch") };
    const ids = [...fixture.steady.webhooks, ...fixture.fresh.webhooks].map((w) => w.id);
    await runWatchStore(env, store, "watch", fixture.steady);
    await runWatchStore(env, store, "watch", fixture.fresh);
    const settings: WatcherSettings = {
      hubBaseUrl: options.countingProxyUrl,
      intervalSeconds: options.intervalSeconds,
      leaseSeconds: options.leaseSeconds,
      concurrency: 4,
      backfill: "10000,7d",
    };
    watchers.push(await startWatcherProcess(env, store, settings, "watcher A"));
    reader = await storeReader(store);
    log(`instances: ${ids.length} webhooks on PostgreSQL, waiting for watcher A's first reads`);
    await allRead(reader, ids, 180_000, "instances");
    await sleep(options.intervalSeconds * 1000);
    const windowSeconds = options.intervalSeconds * options.intervals;
    const window = async () => {
      const before = await proxyCalls(options.countingProxyUrl);
      await sleep(windowSeconds * 1000);
      return callsOn(ids, before, await proxyCalls(options.countingProxyUrl));
    };
    log(`instances: one instance over ${windowSeconds} s`);
    const one = await window();
    watchers.push(await startWatcherProcess(env, store, settings, "watcher B"));
    await sleep(options.intervalSeconds * 1000);
    log(`instances: two instances over ${windowSeconds} s`);
    const two = await window();

    // New messages while A dies: none of their logs may be missed.
    const sending = sendMessages(fixture.sandboxUrl, fixture.fresh, options.newMessages, 2);
    const a = watchers[0]!;
    const marker = `:${a.pid}:`;
    let held: string[] = [];
    for (const deadline = Date.now() + 10_000; held.length === 0 && Date.now() < deadline;) {
      held = (
        await reader.all<{ webhook_id: string }>(
          `select webhook_id from watch_state where lease_owner like '%${marker}%' and lease_until > ${Date.now()}`,
        )
      ).map((row) => row.webhook_id);
    }
    a.kill("SIGKILL");
    const killedAt = Date.now();
    await a.exited;
    log(`instances: watcher A killed holding ${held.length} leases`);
    let takeOverMs = Number.NaN;
    for (const deadline = killedAt + options.leaseSeconds * 4000; Date.now() < deadline; await sleep(100)) {
      const rows = await reader.all<{ polled_at: number | string | null }>(
        `select polled_at from watch_state where webhook_id in (${idList(held)})`,
      );
      if (rows.every((row) => Number(row.polled_at) > killedAt)) {
        takeOverMs = Math.max(...rows.map((row) => Number(row.polled_at))) - killedAt;
        break;
      }
    }
    await sending;
    let check = await mismatchedIds(reader, fixture.sandboxDb, ids);
    for (
      const deadline = Date.now() + 60_000;
      check.mismatched > 0 && Date.now() < deadline;
      await sleep(250)
    )
      check = await mismatchedIds(reader, fixture.sandboxDb, ids);
    return instancesFigures({
      webhooks: ids.length,
      windowSeconds,
      one,
      two,
      leaseSeconds: options.leaseSeconds,
      intervalSeconds: options.intervalSeconds,
      heldAtKill: held.length,
      takeOverMs,
      ...check,
    });
  } finally {
    await reader?.close();
    await Promise.all(watchers.map((w) => w.stop()));
    await postgres.remove();
  }
}
