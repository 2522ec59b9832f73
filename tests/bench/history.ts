/**
 * History questions, answered from the console's copy of a webhook's logs (docs/history.md),
 * measured through the console's HTTP surface. Each console has a store of its own, empty at the
 * start, so a question on a webhook it was not asked about yet makes that webhook's copy.
 *
 * - Find a delivery 5,000 deep (`GET /api/webhooks/{id}/history/find?q=<log id>`) on a webhook
 *   with no copy yet ÷ the bench walking the same pages itself, one after another, straight from
 *   the upstream: with the upstream 25 ms away (the delay proxy) and over loopback.
 * - A question on a webhook of 20,000 logs with no copy yet ÷ the bench reading the same 400 pages
 *   itself, HISTORY_SCAN_CONCURRENCY at once, through the delay proxy (the floor the in-memory
 *   scan reached); and the same question again, once the copy is no longer "just read".
 * - Upstream calls of two identical questions at once on one console ÷ one question's, and of the
 *   next question on the copy a question made (counted at the delay proxy, by path).
 * - Growth of a fresh console's resident memory (VmRSS, sampled every few ms) while a question
 *   makes the copy of 80,000 logs, and of another fresh console's, on that same store, during CSV
 *   exports of 5,000, 20,000 and 80,000 rows from the copy, one after another.
 */
import http from "node:http";
import path from "node:path";
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
/** Logs of each webhook of the calls figures. */
const SHARED_LOGS = 10_000;
/** Logs of each webhook a first question reads whole: HISTORY_SCAN_CAP's default, 400 pages. */
export const FIRST_QUESTION_LOGS = 20_000;
/** The exports' sizes, smallest first: a growth that follows the file's size would show across them. */
const EXPORT_ROWS = [5000, 20_000, 80_000] as const;
/** Logs of the exports' webhook, all copied by the question the memory figures measure. */
const COPY_LOGS = Math.max(...EXPORT_ROWS);
/**
 * A copy its key's question brought up to date less than 5 s ago answers the next question
 * without a hub call (lib/server/history/copy.ts). The next question and the second time wait
 * longer than that, so they read the hub's newest page first, as any later question does.
 */
const PAST_JUST_READ_MS = 6000;
/**
 * Questions share one budget per key (HISTORY_KEY_REQUESTS_PER_MINUTE: a burst of a tenth of a
 * minute's worth, refilled in 6 s). Each first question starts with it full, as one person's
 * question does, not with what the question before it left.
 */
const BUDGET_REFILL_MS = 7000;

export interface HistoryPlan {
  /** Finds per side (each on its own webhook). */
  finds: number;
  /** Logs of each find webhook: more than the find's depth, so the find never reaches the end. */
  findLogs: number;
  /** First questions of FIRST_QUESTION_LOGS logs (each on its own webhook), and as many floor readings. */
  firstQuestions: number;
}

export interface HistoryWebhooks {
  find: string[];
  firstQuestion: string[];
  sharedOne: string;
  sharedTwo: string;
  memory: string;
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
  const firstQuestion: string[] = [];
  for (let i = 0; i < plan.firstQuestions; i++) firstQuestion.push(await make(`first-question-${i + 1}`));
  const webhooks = {
    find,
    firstQuestion,
    sharedOne: await make("shared-one"),
    sharedTwo: await make("shared-two"),
    memory: await make("memory"),
  };
  const fills: LogFill[] = [
    ...find.map((webhookId) => ({ webhookId, count: plan.findLogs })),
    ...firstQuestion.map((webhookId) => ({ webhookId, count: FIRST_QUESTION_LOGS })),
    { webhookId: webhooks.sharedOne, count: SHARED_LOGS },
    { webhookId: webhooks.sharedTwo, count: SHARED_LOGS },
    { webhookId: webhooks.memory, count: COPY_LOGS },
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
  data: Array<{ id: string; sendAt: string }>;
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

/** The log `depth` deep (1 = the newest). */
async function logAtDepth(upstream: Upstream, webhookId: string, depth: number) {
  const agent = keepAliveAgent(1);
  try {
    const page = await readPage(agent, upstream, webhookId, depth - 1, 1);
    const log = page.data[0];
    if (!log) throw new Error(`webhook ${webhookId} has fewer than ${depth} logs (${page.pagination.total})`);
    return log;
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

/**
 * The bench's own reading of a webhook's whole history, as the in-memory scan read it: the first
 * page alone (it tells how many there are), then the others `concurrency` at a time.
 */
async function readWhole(agent: http.Agent, upstream: Upstream, webhookId: string, concurrency: number) {
  const start = performance.now();
  const first = await readPage(agent, upstream, webhookId, 0);
  const pages = Math.ceil(first.pagination.total / PAGE);
  let next = 1;
  let logs = first.data.length;
  const reader = async () => {
    while (next < pages) {
      const offset = next++ * PAGE;
      const page = await readPage(agent, upstream, webhookId, offset);
      logs += page.data.length;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, reader));
  if (logs !== first.pagination.total)
    throw new Error(`read ${logs} of webhook ${webhookId}'s ${first.pagination.total} logs`);
  return { ms: performance.now() - start, pages };
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

interface QuestionResult {
  read: number;
  total: number;
  matches: number;
  partial: unknown;
}

/** A history question through the console, its NDJSON answer read to the end; the result line. */
async function questionThrough(agent: http.Agent, side: ConsoleSide, webhookId: string, query: string) {
  const body = await ask(agent, side, `/api/webhooks/${webhookId}/history?${query}`);
  const last = JSON.parse(body.trimEnd().split("\n").pop() ?? "{}") as { type?: string } & QuestionResult;
  if (last.type !== "result")
    throw new Error(`the question ?${query} ended with ${JSON.stringify(last).slice(0, 300)}`);
  return last;
}

/** Throws unless the answer covers all `logs` of its webhook, with `matches` matches. */
function expectWhole(result: QuestionResult, logs: number, matches: number, what: string): void {
  if (result.read !== logs || result.matches !== matches || result.partial !== null)
    throw new Error(
      `${what}: read ${result.read} of ${logs}, ${result.matches} matches (expected ${matches}), partial ${JSON.stringify(result.partial)}`,
    );
}

/** A CSV export through the console, streamed and counted (never held whole). */
function exportThrough(
  side: ConsoleSide,
  webhookId: string,
  query: string,
): Promise<{ rows: number; bytes: number }> {
  const { url, headers } = consoleTarget(
    side,
    `/api/webhooks/${webhookId}/history/export?format=csv&${query}`,
  );
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`CSV export ?${query}: HTTP ${res.statusCode}`));
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

/** Upstream calls for one webhook that `work` made, counted at a counting proxy. */
async function callsOf(proxyUrl: string, webhookId: string, work: () => Promise<unknown>): Promise<number> {
  const before = await upstreamCalls(proxyUrl);
  await work();
  const calls = callsFor(webhookId, before, await upstreamCalls(proxyUrl));
  return Object.values(calls).reduce((sum, n) => sum + n, 0);
}

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

export interface FirstQuestionMeasure {
  logs: number;
  question: string;
  /** HISTORY_SCAN_CONCURRENCY of the console, and of the bench's own reading. */
  concurrency: number;
  /** Pages the bench's reading read. */
  pages: number;
  /** The bench's reading of every page (the floor), each webhook once. */
  floorMs: number[];
  /** The question on a webhook with no copy, each webhook once. */
  firstMs: number[];
  /** The same question again on each webhook, past the copy's "just read" moment. */
  secondMs: number[];
  firstCalls: number[];
  secondCalls: number[];
  /** CPU milliseconds the console used for each first question. */
  firstCpuMs: number[];
}

export interface HistoryMeasures {
  far: FindMeasure;
  loopback: FindMeasure;
  firstQuestion: FirstQuestionMeasure;
  shared: {
    logs: number;
    question: string;
    oneCalls: number;
    twoCalls: number;
    nextQuestion: string;
    nextQuestionCalls: number;
  };
  memory: {
    /** The question that made the exports' copy. */
    copy: { logs: number; growthBytes: number; beforeBytes: number };
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
  /** HISTORY_SCAN_CONCURRENCY of the console behind the delay proxy. */
  concurrency: number;
  /** The console on loopback. */
  loopback: MeasuredConsole;
  /** A webhook with at least 50 logs that no figure here reads, for warming routes up. */
  warmupWebhookId: string;
  webhooks: HistoryWebhooks;
  /** For the fresh consoles of the memory figures, and the folder of their store. */
  memoryConsole: { port: number; sessionSecret: string; storeDir: string };
  log: (line: string) => void;
}

/** Warms a console's history routes (their first call loads their code) on a webhook no figure reads. */
async function warmUp(agent: http.Agent, side: ConsoleSide, webhookId: string): Promise<void> {
  const missing = "00000000-0000-4000-8000-000000000000";
  await ask(agent, side, `/api/webhooks/${webhookId}/history/find?q=${missing}&cap=50`, 404);
  await questionThrough(agent, side, webhookId, "cap=50");
  await exportThrough(side, webhookId, "cap=50");
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
        const cpuBefore = cpu();
        const timed = async () => {
          measure.findMs.push(await findThrough(consoleAgent, side, target.webhookId, target.logId));
          measure.findCpuMs.push(cpu() - cpuBefore);
        };
        if (countCalls) measure.findCalls.push(await callsOf(countCalls, target.webhookId, timed));
        else await timed();
      };
      for (const step of i % 2 === 0 ? [walk, find] : [find, walk]) await step();
    }
  } finally {
    consoleAgent.destroy();
    walkAgent.destroy();
  }
  return measure;
}

/**
 * A question reading the whole history of each webhook, which has no copy yet, through `side`,
 * taking turns with the bench's own reading of every page on `upstream` (the floor); then the
 * same question again on each, once its copy is no longer "just read".
 */
async function firstQuestionsInTurns(
  side: MeasuredConsole,
  upstream: Upstream,
  proxyUrl: string,
  webhookIds: readonly string[],
  concurrency: number,
): Promise<FirstQuestionMeasure> {
  const question = "status=Failed";
  const consoleAgent = keepAliveAgent(1);
  const floorAgent = keepAliveAgent(concurrency);
  const measure: FirstQuestionMeasure = {
    logs: FIRST_QUESTION_LOGS,
    question,
    concurrency,
    pages: 0,
    floorMs: [],
    firstMs: [],
    secondMs: [],
    firstCalls: [],
    secondCalls: [],
    firstCpuMs: [],
  };
  const failed = failedCount(FIRST_QUESTION_LOGS);
  const cpu = () => treeTotal(side.pid, cpuMs) ?? Number.NaN;
  const asked = async (webhookId: string, what: string) => {
    let ms = 0;
    let cpuUsed = 0;
    const calls = await callsOf(proxyUrl, webhookId, async () => {
      const cpuBefore = cpu();
      const start = performance.now();
      const result = await questionThrough(consoleAgent, side, webhookId, question);
      ms = performance.now() - start;
      cpuUsed = cpu() - cpuBefore;
      expectWhole(result, FIRST_QUESTION_LOGS, failed, what);
    });
    return { ms, cpuUsed, calls };
  };
  try {
    for (const [i, webhookId] of webhookIds.entries()) {
      const floor = async () => {
        const reading = await readWhole(floorAgent, upstream, webhookId, concurrency);
        measure.floorMs.push(reading.ms);
        measure.pages = reading.pages;
      };
      const first = async () => {
        await pause(BUDGET_REFILL_MS);
        const answer = await asked(webhookId, "the first question");
        measure.firstMs.push(answer.ms);
        measure.firstCpuMs.push(answer.cpuUsed);
        measure.firstCalls.push(answer.calls);
      };
      for (const step of i % 2 === 0 ? [floor, first] : [first, floor]) await step();
    }
    await pause(PAST_JUST_READ_MS);
    for (const webhookId of webhookIds) {
      const answer = await asked(webhookId, "the second question");
      measure.secondMs.push(answer.ms);
      measure.secondCalls.push(answer.calls);
    }
  } finally {
    consoleAgent.destroy();
    floorAgent.destroy();
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
        logId: (await logAtDepth(sandbox, webhookId, FIND_DEPTH)).id,
      })),
    );

    log(
      `history: find ${FIND_DEPTH.toLocaleString("en-US")} deep, ${targets.length} times, upstream 25 ms away`,
    );
    const farFind = await findInTurns(far, delayed, targets, input.delayProxyUrl);
    log(`history: find ${FIND_DEPTH.toLocaleString("en-US")} deep, ${targets.length} times, loopback`);
    const loopbackFind = await findInTurns(input.loopback, sandbox, targets, null);

    log(
      `history: a first question on ${FIRST_QUESTION_LOGS.toLocaleString("en-US")} logs, ${webhooks.firstQuestion.length} times, ` +
        "and the bench's own reading in turns; then each again",
    );
    const firstQuestion = await firstQuestionsInTurns(
      far,
      delayed,
      input.delayProxyUrl,
      webhooks.firstQuestion,
      input.concurrency,
    );

    log("history: upstream calls of one question, of the next one, of two identical questions at once");
    const question = "status=Failed";
    const nextQuestion = "status=Success";
    const failed = failedCount(SHARED_LOGS);
    const oneCalls = await callsOf(input.delayProxyUrl, webhooks.sharedOne, async () =>
      expectWhole(
        await questionThrough(agent, far, webhooks.sharedOne, question),
        SHARED_LOGS,
        failed,
        "one question",
      ),
    );
    await pause(PAST_JUST_READ_MS);
    const nextQuestionCalls = await callsOf(input.delayProxyUrl, webhooks.sharedOne, async () =>
      expectWhole(
        await questionThrough(agent, far, webhooks.sharedOne, nextQuestion),
        SHARED_LOGS,
        SHARED_LOGS - failed,
        "the next question",
      ),
    );
    const twoCalls = await callsOf(input.delayProxyUrl, webhooks.sharedTwo, async () => {
      const both = await Promise.all([
        questionThrough(agent, far, webhooks.sharedTwo, question),
        questionThrough(agent, farOther, webhooks.sharedTwo, question),
      ]);
      for (const result of both) expectWhole(result, SHARED_LOGS, failed, "two questions at once");
    });

    const memory = await measureMemory(input);
    return {
      far: farFind,
      loopback: loopbackFind,
      firstQuestion,
      shared: { logs: SHARED_LOGS, question, oneCalls, twoCalls, nextQuestion, nextQuestionCalls },
      memory,
    };
  } finally {
    agent.destroy();
  }
}

/**
 * Runs `work` on a console of its own over the store `storePath`, started fresh (so what other
 * figures did to a heap does not hide growth) and warmed up, then stopped.
 */
async function onFreshConsole<T>(
  input: HistoryInput,
  storePath: string,
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
      env: { WATCH_DB: storePath, DATABASE_URL: "" },
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

/**
 * The question that copies 80,000 logs on one fresh console; then, on another over the same
 * store, the CSV exports from that copy, smallest first: each from the send time of its oldest row.
 */
async function measureMemory(input: HistoryInput): Promise<HistoryMeasures["memory"]> {
  const webhookId = input.webhooks.memory;
  const store = path.join(input.memoryConsole.storeDir, "memory-console.sqlite");
  const copy = await onFreshConsole(input, store, async (side, pid, agent) => {
    const measured = await rssGrowth(pid, () => questionThrough(agent, side, webhookId, `cap=${COPY_LOGS}`));
    expectWhole(measured.result, COPY_LOGS, COPY_LOGS, "the question that makes the copy");
    return { logs: COPY_LOGS, growthBytes: measured.growthBytes, beforeBytes: measured.beforeBytes };
  });
  const sandbox = { url: input.sandboxUrl, apiKey: input.apiKey };
  const oldest = await Promise.all(EXPORT_ROWS.map((rows) => logAtDepth(sandbox, webhookId, rows)));
  const exports = await onFreshConsole(input, store, async (side, pid) => {
    const measured: HistoryMeasures["memory"]["exports"] = [];
    for (const [i, rows] of EXPORT_ROWS.entries()) {
      const since = `since=${encodeURIComponent(oldest[i]!.sendAt)}`;
      const { result, beforeBytes, growthBytes } = await rssGrowth(pid, () =>
        exportThrough(side, webhookId, since),
      );
      if (result.rows !== rows) throw new Error(`the CSV export of ${rows} rows had ${result.rows}`);
      measured.push({ rows, bytes: result.bytes, growthBytes, beforeBytes });
      await pause(1000);
    }
    return measured;
  });
  return { copy, exports };
}
