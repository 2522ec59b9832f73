/**
 * The history scan, measured through the console's HTTP surface:
 *
 * - Find a delivery 5,000 deep (`GET /api/webhooks/{id}/history/find?q=<log id>`) ÷ the bench
 *   walking the same pages itself, one after another, straight from the upstream: with the
 *   upstream 25 ms away (the delay proxy) and over loopback. Each find asks about a webhook no
 *   scan has read yet on that console, so no kept window helps it.
 * - Upstream calls of two identical scans at once on one console ÷ one scan's, and of a second
 *   question on the window a scan has just read (counted at the delay proxy, by path).
 * - Growth of a fresh console's resident memory (VmRSS, sampled every few ms) during a scan of
 *   20,000 logs, and of another fresh console's during CSV exports of 5,000, 20,000 and 80,000
 *   rows, one after another.
 */
import http from "node:http";
import type { LogFill } from "./fill";
import { failedCount } from "./fill";
import { createWebhook, signIn } from "../support/hub";
import { get, keepAliveAgent, type Target } from "./load";
import { startConsoleProcess, type Server } from "../support/server-process";
import { cpuMs, rssBytes, treeTotal } from "./servers";
import { callsFor, upstreamCalls } from "./viewers";

/** The log a find looks for is the 5,000th newest of its webhook. */
export const FIND_DEPTH = 5000;
const PAGE = 50;
/** Logs of each scan webhook (the calls figures), of the memory figures' scan and of their exports' webhook. */
const SCAN_LOGS = 10_000;
const MEMORY_SCAN_LOGS = 20_000;
/** The exports' sizes, smallest first: a growth that follows the file's size would show across them. */
const EXPORT_ROWS = [5000, 20_000, 80_000] as const;

export interface HistoryPlan {
  /** Finds per side (each on its own webhook). */
  finds: number;
  /** Logs of each find webhook: more than the find's depth, so the find never reaches the end. */
  findLogs: number;
}

export interface HistoryWebhooks {
  find: string[];
  scanOne: string;
  scanTwo: string;
  memoryScan: string;
  memoryExport: string;
}

/** The webhooks the history figures read, and the logs to fill into each. */
export async function createHistoryWebhooks(
  sandboxUrl: string,
  applicationId: string,
  plan: HistoryPlan,
): Promise<{ webhooks: HistoryWebhooks; fills: LogFill[] }> {
  const make = (name: string) =>
    createWebhook(sandboxUrl, applicationId, `https://hooks.example.com/bench/history-${name}`).then(
      (w) => w.id,
    );
  const find: string[] = [];
  for (let i = 0; i < plan.finds; i++) find.push(await make(`find-${i + 1}`));
  const webhooks = {
    find,
    scanOne: await make("scan-one"),
    scanTwo: await make("scan-two"),
    memoryScan: await make("memory-scan"),
    memoryExport: await make("memory-export"),
  };
  const fills: LogFill[] = [
    ...find.map((webhookId) => ({ webhookId, count: plan.findLogs })),
    { webhookId: webhooks.scanOne, count: SCAN_LOGS },
    { webhookId: webhooks.scanTwo, count: SCAN_LOGS },
    { webhookId: webhooks.memoryScan, count: MEMORY_SCAN_LOGS },
    { webhookId: webhooks.memoryExport, count: Math.max(...EXPORT_ROWS) },
  ];
  return { webhooks, fills };
}

/** The hub's list route, called by the bench itself: the sandbox, or the delay proxy in front of it. */
export interface Upstream {
  url: string;
  apiKey: string;
}

/** A console instance and a session on it. */
export interface ConsoleSide {
  url: string;
  cookie: string;
}

/** A console instance the bench started (its pid, for its CPU time) and a session on it. */
export interface MeasuredConsole extends ConsoleSide {
  pid: number;
}

interface LogPage {
  data: Array<{ id: string }>;
  pagination: { total: number };
}

async function readPage(
  agent: http.Agent,
  upstream: Upstream,
  webhookId: string,
  offset: number,
  limit = PAGE,
) {
  const answer = await get(
    agent,
    {
      url: `${upstream.url}/v1/organization/webhook/${webhookId}/webhook-log?offset=${offset}&limit=${limit}`,
      headers: { "x-api-key": upstream.apiKey },
    },
    true,
  );
  if (answer.status !== 200)
    throw new Error(`the hub's logs page at offset ${offset}: HTTP ${answer.status}`);
  return JSON.parse(answer.body.toString("utf8")) as LogPage;
}

/** The id of the log `depth` deep (1 = the newest). */
async function logAtDepth(upstream: Upstream, webhookId: string, depth: number): Promise<string> {
  const agent = keepAliveAgent(1);
  try {
    const page = await readPage(agent, upstream, webhookId, depth - 1, 1);
    const id = page.data[0]?.id;
    if (!id) throw new Error(`webhook ${webhookId} has fewer than ${depth} logs (${page.pagination.total})`);
    return id;
  } finally {
    agent.destroy();
  }
}

/** The bench's own walk: pages of 50, newest first, one after another, until `logId` is on one. */
async function walkTo(agent: http.Agent, upstream: Upstream, webhookId: string, logId: string) {
  const start = performance.now();
  for (let pages = 1; ; pages++) {
    const page = await readPage(agent, upstream, webhookId, (pages - 1) * PAGE);
    if (page.data.some((log) => log.id === logId)) return { ms: performance.now() - start, pages };
    if (page.data.length < PAGE) throw new Error(`log ${logId} is not in webhook ${webhookId}`);
  }
}

function consoleTarget(side: ConsoleSide, path: string): Target {
  return { url: `${side.url}${path}`, headers: { cookie: side.cookie } };
}

/** One GET through the console, body kept; throws on any status but `expect`. */
async function ask(agent: http.Agent, side: ConsoleSide, path: string, expect = 200) {
  const answer = await get(agent, consoleTarget(side, path), true);
  if (answer.status !== expect)
    throw new Error(`GET ${path} → HTTP ${answer.status}: ${answer.body.toString("utf8").slice(0, 300)}`);
  return answer.body.toString("utf8");
}

/** Find through the console; checks it found the right log at the right position. */
async function findThrough(agent: http.Agent, side: ConsoleSide, webhookId: string, logId: string) {
  const start = performance.now();
  const body = await ask(agent, side, `/api/webhooks/${webhookId}/history/find?q=${logId}`);
  const ms = performance.now() - start;
  const found = JSON.parse(body) as { log: { id: string }; position: number };
  if (found.log.id !== logId || found.position !== FIND_DEPTH - 1)
    throw new Error(
      `find answered log ${found.log.id} at ${found.position}, not ${logId} at ${FIND_DEPTH - 1}`,
    );
  return ms;
}

interface ScanResult {
  read: number;
  total: number;
  matches: number;
  partial: unknown;
}

/** A history scan through the console, its NDJSON answer read to the end; the result line. */
async function scanThrough(agent: http.Agent, side: ConsoleSide, webhookId: string, query: string) {
  const body = await ask(agent, side, `/api/webhooks/${webhookId}/history?${query}`);
  const last = JSON.parse(body.trimEnd().split("\n").pop() ?? "{}") as { type?: string } & ScanResult;
  if (last.type !== "result")
    throw new Error(`the scan ?${query} ended with ${JSON.stringify(last).slice(0, 300)}`);
  return last;
}

/** A CSV export through the console, streamed and counted (never held whole). */
function exportThrough(
  side: ConsoleSide,
  webhookId: string,
  cap: number,
): Promise<{ rows: number; bytes: number }> {
  const { url, headers } = consoleTarget(
    side,
    `/api/webhooks/${webhookId}/history/export?format=csv&cap=${cap}`,
  );
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`CSV export of ${cap}: HTTP ${res.statusCode}`));
        return;
      }
      let lines = 0;
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      // The first line is the header.
      res.on("end", () => resolve({ rows: lines - 1, bytes }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(120_000, () => req.destroy(new Error(`timeout: ${url}`)));
  });
}

/** The highest resident memory of a process tree while `work` runs, above what it was just before. */
async function rssGrowth<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; beforeBytes: number; growthBytes: number }> {
  const read = () => treeTotal(pid, rssBytes) ?? Number.NaN;
  const beforeBytes = read();
  let peak = beforeBytes;
  const timer = setInterval(() => (peak = Math.max(peak, read())), 5);
  try {
    const result = await work();
    peak = Math.max(peak, read());
    return { result, beforeBytes, growthBytes: peak - beforeBytes };
  } finally {
    clearInterval(timer);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface FindMeasure {
  depth: number;
  /** Pages the walk read to reach the log. */
  pages: number;
  findMs: number[];
  walkMs: number[];
  /** Upstream calls each find made (counted where there is a counting proxy). */
  findCalls: number[];
  /** CPU milliseconds the console used for each find. */
  findCpuMs: number[];
}

export interface HistoryMeasures {
  far: FindMeasure;
  loopback: FindMeasure;
  shared: {
    logs: number;
    question: string;
    oneCalls: number;
    twoCalls: number;
    nextQuestion: string;
    nextQuestionCalls: number;
  };
  memory: {
    scan: { logs: number; growthBytes: number; beforeBytes: number };
    exports: Array<{ rows: number; bytes: number; growthBytes: number; beforeBytes: number }>;
  };
}

export interface HistoryInput {
  apiKey: string;
  sandboxUrl: string;
  /** The delay proxy: the hub 25 ms away, counting what it forwards. */
  delayProxyUrl: string;
  /** The console behind the delay proxy, with a second session (another person). */
  far: MeasuredConsole & { otherCookie: string };
  /** The console on loopback. */
  loopback: MeasuredConsole;
  /** A webhook with at least 50 logs that no figure here reads, for warming routes up. */
  warmupWebhookId: string;
  webhooks: HistoryWebhooks;
  /** For the fresh console of the memory figures. */
  memoryConsole: { port: number; sessionSecret: string };
  log: (line: string) => void;
}

/** Warms a console's history routes (their first call loads their code) on a webhook no figure reads. */
async function warmUp(agent: http.Agent, side: ConsoleSide, webhookId: string): Promise<void> {
  const missing = "00000000-0000-4000-8000-000000000000";
  await ask(agent, side, `/api/webhooks/${webhookId}/history/find?q=${missing}&cap=50`, 404);
  await scanThrough(agent, side, webhookId, "cap=50");
  await exportThrough(side, webhookId, 50);
}

/**
 * Finds on each of the find webhooks through `side`, taking turns with the bench's own walk to
 * the same log on `upstream` (walk, find, find, walk, ...).
 */
async function findInTurns(
  side: MeasuredConsole,
  upstream: Upstream,
  targets: Array<{ webhookId: string; logId: string }>,
  countCalls: string | null,
): Promise<FindMeasure> {
  const consoleAgent = keepAliveAgent(1);
  const walkAgent = keepAliveAgent(1);
  const measure: FindMeasure = {
    depth: FIND_DEPTH,
    pages: 0,
    findMs: [],
    walkMs: [],
    findCalls: [],
    findCpuMs: [],
  };
  const cpu = () => treeTotal(side.pid, cpuMs) ?? Number.NaN;
  try {
    for (const [i, target] of targets.entries()) {
      const walk = async () => {
        const w = await walkTo(walkAgent, upstream, target.webhookId, target.logId);
        measure.walkMs.push(w.ms);
        measure.pages = w.pages;
      };
      const find = async () => {
        const before = countCalls ? await upstreamCalls(countCalls) : null;
        const cpuBefore = cpu();
        measure.findMs.push(await findThrough(consoleAgent, side, target.webhookId, target.logId));
        measure.findCpuMs.push(cpu() - cpuBefore);
        if (countCalls && before) {
          const calls = callsFor(target.webhookId, before, await upstreamCalls(countCalls));
          measure.findCalls.push(Object.values(calls).reduce((sum, n) => sum + n, 0));
        }
      };
      for (const step of i % 2 === 0 ? [walk, find] : [find, walk]) await step();
    }
  } finally {
    consoleAgent.destroy();
    walkAgent.destroy();
  }
  return measure;
}

export async function measureHistory(input: HistoryInput): Promise<HistoryMeasures> {
  const { webhooks, log } = input;
  const sandbox = { url: input.sandboxUrl, apiKey: input.apiKey };
  const delayed = { url: input.delayProxyUrl, apiKey: input.apiKey };
  const far = input.far;
  const farOther: ConsoleSide = { url: far.url, cookie: far.otherCookie };
  const agent = keepAliveAgent(4);
  try {
    await warmUp(agent, far, input.warmupWebhookId);
    await warmUp(agent, input.loopback, input.warmupWebhookId);
    const targets = await Promise.all(
      webhooks.find.map(async (webhookId) => ({
        webhookId,
        logId: await logAtDepth(sandbox, webhookId, FIND_DEPTH),
      })),
    );

    log(
      `history: find ${FIND_DEPTH.toLocaleString("en-US")} deep, ${targets.length} times, upstream 25 ms away`,
    );
    const farFind = await findInTurns(far, delayed, targets, input.delayProxyUrl);
    log(`history: find ${FIND_DEPTH.toLocaleString("en-US")} deep, ${targets.length} times, loopback`);
    const loopbackFind = await findInTurns(input.loopback, sandbox, targets, null);

    log("history: upstream calls of one scan, of two identical scans at once, of a next question");
    const question = "status=Failed";
    const nextQuestion = "status=Success";
    const callsOf = async (webhookId: string, work: () => Promise<unknown>) => {
      const before = await upstreamCalls(input.delayProxyUrl);
      await work();
      const calls = callsFor(webhookId, before, await upstreamCalls(input.delayProxyUrl));
      return Object.values(calls).reduce((sum, n) => sum + n, 0);
    };
    const expectMatches = (result: ScanResult, matches: number, what: string) => {
      if (result.read !== SCAN_LOGS || result.matches !== matches || result.partial !== null)
        throw new Error(
          `${what}: read ${result.read} of ${SCAN_LOGS}, ${result.matches} matches (expected ${matches}), partial ${JSON.stringify(result.partial)}`,
        );
    };
    const failed = failedCount(SCAN_LOGS);
    const oneCalls = await callsOf(webhooks.scanOne, async () =>
      expectMatches(await scanThrough(agent, far, webhooks.scanOne, question), failed, "one scan"),
    );
    const nextQuestionCalls = await callsOf(webhooks.scanOne, async () =>
      expectMatches(
        await scanThrough(agent, far, webhooks.scanOne, nextQuestion),
        SCAN_LOGS - failed,
        "the next question",
      ),
    );
    const twoCalls = await callsOf(webhooks.scanTwo, async () => {
      const both = await Promise.all([
        scanThrough(agent, far, webhooks.scanTwo, question),
        scanThrough(agent, farOther, webhooks.scanTwo, question),
      ]);
      for (const result of both) expectMatches(result, failed, "two scans at once");
    });

    const memory = await measureMemory(input);
    return {
      far: farFind,
      loopback: loopbackFind,
      shared: { logs: SCAN_LOGS, question, oneCalls, twoCalls, nextQuestion, nextQuestionCalls },
      memory,
    };
  } finally {
    agent.destroy();
  }
}

/**
 * Runs `work` on a console of its own, started fresh (so what other figures did to a heap does
 * not hide growth) and warmed up, then stopped.
 */
async function onFreshConsole<T>(
  input: HistoryInput,
  work: (side: ConsoleSide, pid: number, agent: http.Agent) => Promise<T>,
): Promise<T> {
  const agent = keepAliveAgent(1);
  let server: Server | null = null;
  try {
    server = await startConsoleProcess({
      port: input.memoryConsole.port,
      hubBaseUrl: input.sandboxUrl,
      sessionSecret: input.memoryConsole.sessionSecret,
      name: "console (memory)",
    });
    input.log(`history: memory, on a fresh console ${server.url} (pid ${server.pid})`);
    const side = { url: server.url, cookie: await signIn(server.url, input.apiKey) };
    await warmUp(agent, side, input.warmupWebhookId);
    await pause(1000);
    return await work(side, server.pid, agent);
  } finally {
    agent.destroy();
    await server?.stop();
  }
}

/** A scan of 20,000 logs on one fresh console; the CSV exports, smallest first, on another. */
async function measureMemory(input: HistoryInput): Promise<HistoryMeasures["memory"]> {
  const { webhooks } = input;
  const scan = await onFreshConsole(input, async (side, pid, agent) => {
    const measured = await rssGrowth(pid, () => scanThrough(agent, side, webhooks.memoryScan, ""));
    if (measured.result.read !== MEMORY_SCAN_LOGS)
      throw new Error(`the scan read ${measured.result.read} of ${MEMORY_SCAN_LOGS} logs`);
    return { logs: MEMORY_SCAN_LOGS, growthBytes: measured.growthBytes, beforeBytes: measured.beforeBytes };
  });
  const exports = await onFreshConsole(input, async (side, pid) => {
    const measured: HistoryMeasures["memory"]["exports"] = [];
    for (const rows of EXPORT_ROWS) {
      const { result, beforeBytes, growthBytes } = await rssGrowth(pid, () =>
        exportThrough(side, webhooks.memoryExport, rows),
      );
      if (result.rows !== rows) throw new Error(`the CSV export of ${rows} rows had ${result.rows}`);
      measured.push({ rows, bytes: result.bytes, growthBytes, beforeBytes });
      await pause(1000);
    }
    return measured;
  });
  return { scan, exports };
}
