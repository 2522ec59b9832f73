/**
 * `npm run bench`: the console measured against the upstream it wraps, on loopback, in one run.
 *
 * It needs a production build (`next build`; run first when `<distDir>/BUILD_ID` is missing).
 * It starts the sandbox on a temporary SQLite file and the built console on their own ports
 * (BENCH_SANDBOX_PORT 4300, BENCH_CONSOLE_PORT 3300), fills the sandbox, measures, and prints one
 * table; the same figures go to bench-results/bench-<time>.json and bench-results/latest.json.
 * Every time figure is a ratio of two sides measured in turns in the same run.
 * BENCH_QUICK=1: smaller counts and shorter rounds, for a smoke run.
 * Exit status: 0 when the table was made (whether or not every goal holds), 1 on a harness error.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import {
  launchChromium,
  measureFirstPaint,
  measureInteraction,
  measureInteractionFloor,
  measurePageWeight,
  signedInContext,
} from "./browser";
import { measureDelivery } from "./delivery";
import { fillLogs } from "./fill";
import { createApplication, createChannel, createWebhook, signIn } from "./hub";
import {
  alternatingLatency,
  closedLoop,
  compareThroughput,
  get,
  keepAliveAgent,
  type Side,
  type Target,
} from "./load";
import {
  formatCount,
  formatMarkdown,
  formatMiB,
  formatMs,
  formatRatio,
  formatTable,
  ratioFigure,
  writeResult,
  type BenchResult,
  type Figure,
} from "./report";
import { measureScale } from "./sandbox-scale";
import {
  assertPortFree,
  buildInfo,
  cpuMs,
  ensureBuild,
  peakRssBytes,
  ROOT,
  startBareProxyProcess,
  startConsoleProcess,
  startSandboxProcess,
  stopAll,
  treeTotal,
  type Server,
} from "./servers";
import { median, ratio } from "./stats";

const QUICK = process.env.BENCH_QUICK === "1";

const PLAN = QUICK
  ? {
      rounds: 2,
      roundMs: 1000,
      latencySamples: 60,
      small: 10_000,
      large: 100_000,
      firstPageSamples: 40,
      deepSamples: 10,
      deliveries: 200,
      interactionRounds: 3,
    }
  : {
      rounds: 4,
      roundMs: 2500,
      latencySamples: 300,
      small: 10_000,
      large: 1_000_000,
      firstPageSamples: 150,
      deepSamples: 25,
      deliveries: 2000,
      interactionRounds: 7,
    };

const CONCURRENCY = 32;
const PAGE_WEIGHT_GOAL_BYTES = 180_000;

const startedAt = new Date();
const t0 = performance.now();
const log = (line: string) =>
  process.stderr.write(`[bench ${((performance.now() - t0) / 1000).toFixed(1).padStart(5)}s] ${line}\n`);

async function main(): Promise<void> {
  const loadavgAtStart = os.loadavg();
  log(QUICK ? "BENCH_QUICK=1: smoke run with small counts" : "full run (BENCH_QUICK=1 for a smoke run)");
  ensureBuild(log);

  const consolePort = Number(process.env.BENCH_CONSOLE_PORT ?? 3300);
  const sandboxPort = Number(process.env.BENCH_SANDBOX_PORT ?? 4300);
  const bareProxyPort = Number(process.env.BENCH_BARE_PROXY_PORT ?? 4301);
  await assertPortFree(consolePort, "console");
  await assertPortFree(sandboxPort, "sandbox");
  await assertPortFree(bareProxyPort, "bare proxy");
  const tmp = (tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "hub-bench-")));
  const dbPath = path.join(tmp, "sandbox.sqlite");

  try {
    // 1. Applications and webhooks through the sandbox's admin routes, then logs straight into its file.
    let sandbox = await startSandboxProcess({ port: sandboxPort, dbPath, seed: "none" });
    const app = await createApplication(sandbox.url, "bench");
    const channel = await createChannel(sandbox.url, app.id, "sms");
    const small = await createWebhook(sandbox.url, app.id, "https://hooks.example.com/bench/small");
    const large = await createWebhook(sandbox.url, app.id, "https://hooks.example.com/bench/large");
    await sandbox.stop();
    log(`filling ${formatCount(PLAN.small)} + ${formatCount(PLAN.large)} logs into ${dbPath}`);
    const fill = fillLogs(dbPath, [
      {
        webhookId: small.id,
        count: PLAN.small,
        messages: { applicationId: app.id, channelId: channel.id, channelKind: channel.kind },
      },
      { webhookId: large.id, count: PLAN.large },
    ]);
    log(
      `filled ${formatCount(fill.rows)} logs in ${fill.seconds.toFixed(1)} s (${formatCount(fill.rows / fill.seconds)} rows/s)`,
    );

    sandbox = await startSandboxProcess({ port: sandboxPort, dbPath, seed: "none" });
    const consoleServer = await startConsoleProcess({
      port: consolePort,
      hubBaseUrl: sandbox.url,
      sessionSecret: randomBytes(32).toString("base64url"),
    });
    const bareProxy = await startBareProxyProcess({ port: bareProxyPort, upstream: sandbox.url });
    log(
      `sandbox ${sandbox.url} (pid ${sandbox.pid}), console ${consoleServer.url} (pid ${consoleServer.pid}), ` +
        `bare proxy ${bareProxy.url} (pid ${bareProxy.pid})`,
    );
    const cookie = await signIn(consoleServer.url, app.apiKey);

    const viaConsole: Target = {
      url: `${consoleServer.url}/api/webhooks/${small.id}/logs?limit=50`,
      headers: { cookie },
    };
    const logsPath = `/v1/organization/webhook/${small.id}/webhook-log?limit=50`;
    const direct: Target = { url: `${sandbox.url}${logsPath}`, headers: { "x-api-key": app.apiKey } };
    const viaBareProxy: Target = { url: `${bareProxy.url}${logsPath}`, headers: { "x-api-key": app.apiKey } };
    await assertSameData(viaConsole, direct);
    await assertSameData(viaBareProxy, direct);

    const figures: Figure[] = [];
    const errors: string[] = [];
    /** Runs one part; a part that cannot measure gets a "not measured" row and the run ends with exit 1. */
    const part = async (names: string[], measure: () => Promise<Figure[]>) => {
      try {
        figures.push(...(await measure()));
      } catch (error) {
        const why = error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error);
        log(`could not measure ${names.join(", ")}: ${error instanceof Error ? error.stack : why}`);
        errors.push(...names);
        figures.push(
          ...names.map((figure) => ({
            figure,
            measured: `not measured: ${why}`,
            goal: "-",
            holds: "no" as const,
            details: { error: why },
          })),
        );
      }
    };
    await part(["proxy throughput", "proxy latency", "proxy floor (reference)"], () =>
      proxyFigures(
        { target: viaConsole, cpuMs: () => treeTotal(consoleServer.pid, cpuMs) },
        { target: direct, cpuMs: () => treeTotal(sandbox.pid, cpuMs) },
        { target: viaBareProxy, cpuMs: () => treeTotal(bareProxy.pid, cpuMs) },
      ),
    );
    await part(["page weight", "first paint", "interaction", "interaction floor (reference)"], () =>
      browserFigures(consoleServer, cookie, small.id),
    );
    log("sandbox scale");
    await part(["sandbox scale, first page", "sandbox scale, deep offset"], () =>
      measureScale({
        sandboxUrl: sandbox.url,
        apiKey: app.apiKey,
        small: { webhookId: small.id, count: PLAN.small },
        large: { webhookId: large.id, count: PLAN.large },
        firstPageSamples: PLAN.firstPageSamples,
        deepSamples: PLAN.deepSamples,
      }),
    );
    log(`sandbox delivery of ${formatCount(PLAN.deliveries)} messages`);
    await part(["sandbox delivery"], async () => [await measureDelivery(sandbox.url, PLAN.deliveries)]);
    figures.push(memoryFigure(consoleServer, sandbox));
    await stopAll();

    const result: BenchResult = {
      startedAt: startedAt.toISOString(),
      quick: QUICK,
      durationSeconds: Math.round((performance.now() - t0) / 1000),
      machine: { cpus: os.cpus().length, node: process.version, loadavgAtStart },
      build: buildInfo(),
      fill: { rows: fill.rows, seconds: fill.seconds },
      figures,
    };
    const file = writeResult(path.join(ROOT, "bench-results"), result);
    process.stdout.write(`\n${formatTable(figures)}\n\n`);
    log(
      `written ${path.relative(ROOT, file)} and bench-results/latest.json; Markdown:\n${formatMarkdown(figures)}`,
    );
    const failing = figures
      .filter((f) => f.holds === "no" && !errors.includes(f.figure))
      .map((f) => f.figure);
    log(failing.length ? `goals that do not hold: ${failing.join(", ")}` : "every measured goal holds");
    if (errors.length) {
      log(`harness error: not measured: ${errors.join(", ")}`);
      process.exitCode = 1;
    }
  } finally {
    await stopAll();
    removeTmp();
  }
}

/** The temporary folder of the sandbox's database (a full run writes about 600 MB there). */
let tmpDir: string | undefined;

function removeTmp(): void {
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
  tmpDir = undefined;
}

/** The console must answer what the sandbox answers, or the comparison means nothing. */
async function assertSameData(viaConsole: Target, direct: Target): Promise<void> {
  const agent = keepAliveAgent(1);
  try {
    const [a, b] = [await get(agent, viaConsole, true), await get(agent, direct, true)];
    if (a.status !== 200 || b.status !== 200)
      throw new Error(
        `console HTTP ${a.status}, sandbox HTTP ${b.status}: ${a.body.toString().slice(0, 300)}`,
      );
    const ids = (buf: Buffer) =>
      (JSON.parse(buf.toString("utf8")) as { data: Array<{ id: string }> }).data.map((l) => l.id).join();
    if (ids(a.body) !== ids(b.body)) throw new Error("the console and the sandbox list different logs");
  } finally {
    agent.destroy();
  }
}

/**
 * Console ÷ direct, and for reference a bare pass-through proxy ÷ direct: the least one more HTTP
 * hop in Node costs here, whatever the proxy does. Throughput in ABBA rounds per pair; latency one
 * request at a time, the three sides taking turns.
 */
async function proxyFigures(viaConsole: Side, direct: Side, bare: Side): Promise<Figure[]> {
  log("warming up the three sides");
  for (const side of [viaConsole, direct, bare])
    await closedLoop(side.target, CONCURRENCY, QUICK ? 500 : 1500);

  log(
    `proxy throughput: ${PLAN.rounds} rounds of ${PLAN.roundMs} ms per side, ${CONCURRENCY} concurrent (console and direct, then bare proxy and direct)`,
  );
  const options = { rounds: PLAN.rounds, roundMs: PLAN.roundMs, concurrency: CONCURRENCY };
  const [c, d] = await compareThroughput(viaConsole, direct, options);
  const [b, d2] = await compareThroughput(bare, direct, options);
  const failures = {
    console: c.failures,
    sandbox: d.failures,
    bareProxy: b.failures,
    sandboxAgain: d2.failures,
  };
  if (c.failed || d.failed || b.failed || d2.failed)
    throw new Error(`requests failed during the throughput test: ${JSON.stringify(failures)}`);
  const roundRatios = c.perRound.map((rps, i) => rps / (d.perRound[i] ?? rps));

  log(`proxy latency: ${PLAN.latencySamples} requests per side, one at a time`);
  const [cl, dl, bl] = await alternatingLatency(
    [viaConsole.target, direct.target, bare.target],
    PLAN.latencySamples,
  );
  const cp50 = median(cl as number[]);
  const dp50 = median(dl as number[]);
  const bp50 = median(bl as number[]);
  const bareThroughput = ratio(b.rps, d2.rps);
  const bareLatency = ratio(bp50, dp50);

  return [
    ratioFigure(
      "proxy throughput",
      ratio(c.rps, d.rps),
      { atLeast: 0.6 },
      `${formatCount(c.rps)} ÷ ${formatCount(d.rps)} req/s, limit=50, ${CONCURRENCY} concurrent; rounds ${roundRatios.map((r) => r.toFixed(2)).join(" ")}; ` +
        `CPU per request: console ${formatMs(c.cpuMsPerRequest ?? Number.NaN)}, sandbox ${formatMs(d.cpuMsPerRequest ?? Number.NaN)}`,
      {
        consoleRps: c.rps,
        directRps: d.rps,
        consolePerRound: c.perRound,
        directPerRound: d.perRound,
        requests: c.completed + d.completed,
        consoleCpuMsPerRequest: c.cpuMsPerRequest,
        sandboxCpuMsPerRequest: d.cpuMsPerRequest,
      },
    ),
    ratioFigure(
      "proxy latency",
      ratio(cp50, dp50),
      { atMost: 1.5 },
      `p50 ${formatMs(cp50)} ÷ ${formatMs(dp50)}, one at a time`,
      {
        consoleP50Ms: cp50,
        directP50Ms: dp50,
        samplesPerSide: PLAN.latencySamples,
      },
    ),
    {
      figure: "proxy floor (reference)",
      measured:
        `a bare node:http pass-through (no session, no checks, no Next): throughput ${formatRatio(bareThroughput)} ` +
        `(${formatCount(b.rps)} ÷ ${formatCount(d2.rps)} req/s, CPU ${formatMs(b.cpuMsPerRequest ?? Number.NaN)} per request), ` +
        `latency ${formatRatio(bareLatency)} (p50 ${formatMs(bp50)} ÷ ${formatMs(dp50)})`,
      goal: "report",
      holds: "report",
      details: {
        throughputRatio: bareThroughput,
        latencyRatio: bareLatency,
        bareRps: b.rps,
        directRps: d2.rps,
        bareP50Ms: bp50,
        directP50Ms: dp50,
        bareCpuMsPerRequest: b.cpuMsPerRequest,
      },
    },
  ];
}

async function browserFigures(consoleServer: Server, cookie: string, webhookId: string): Promise<Figure[]> {
  const pageUrl = `${consoleServer.url}/webhooks/${webhookId}`;
  const browser = await launchChromium();
  try {
    const context = await signedInContext(browser, consoleServer.url, cookie);
    log("page weight");
    const weight = await measurePageWeight(context, pageUrl, PAGE_WEIGHT_GOAL_BYTES);
    log("first paint");
    const paint = await measureFirstPaint(context, pageUrl, cookie);
    log(`interaction: ${PLAN.interactionRounds} rounds`);
    const interaction = await measureInteraction(
      context,
      {
        pageUrl,
        webhookId,
        rounds: PLAN.interactionRounds,
        actions: {
          "Next page": (page) => page.getByRole("button", { name: "Next page" }).click(),
          "Status filter": (page) => chooseStatus(page, "Failed"),
        },
        apiFor: {
          "Next page": (size) => `/api/webhooks/${webhookId}/logs?offset=${size}&limit=${size}`,
          "Status filter": (size) => `/api/webhooks/${webhookId}/logs?offset=0&limit=${size}&status=Failed`,
        },
      },
      1.3,
    );
    log(`interaction floor: ${PLAN.interactionRounds} rounds`);
    const floor = await measureInteractionFloor(context, {
      pageUrl,
      webhookId,
      rounds: PLAN.interactionRounds,
    });
    return [weight, paint, interaction, floor];
  } finally {
    await browser.close();
  }
}

/** The "Status" filter: a native select (combobox). */
async function chooseStatus(page: Page, value: string): Promise<void> {
  await page.getByRole("combobox", { name: "Status" }).selectOption(value);
}

function memoryFigure(consoleServer: Server, sandbox: Server): Figure {
  const consoleBytes = treeTotal(consoleServer.pid, peakRssBytes) ?? Number.NaN;
  const sandboxBytes = treeTotal(sandbox.pid, peakRssBytes) ?? Number.NaN;
  return {
    figure: "memory",
    measured: `peak RSS: console ${formatMiB(consoleBytes)}, sandbox ${formatMiB(sandboxBytes)} (VmHWM after the run)`,
    goal: "report",
    holds: "report",
    details: { consolePeakRssBytes: consoleBytes, sandboxPeakRssBytes: sandboxBytes },
  };
}

const interrupted = () => {
  log("interrupted: stopping what the bench started");
  void stopAll().finally(() => {
    removeTmp();
    process.exit(130);
  });
};
process.once("SIGINT", interrupted);
process.once("SIGTERM", interrupted);

main().catch(async (error: unknown) => {
  log(`harness error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  await stopAll();
  removeTmp();
  process.exit(1);
});
