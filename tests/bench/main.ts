/**
 * `npm run bench`: the console measured against the framework it is built on and the upstream it
 * wraps, on loopback, in one run (docs/benchmark.md explains each figure).
 *
 * It needs a production build (`next build`; run first when `<distDir>/BUILD_ID` is missing) and
 * builds the bare Next app of tests/bench/bare-next/ when its build is missing or stale. It starts
 * the sandbox on a temporary SQLite file, the built console, the reference servers (a bare Next
 * route handler, a bare node:http hop, a 25 ms delay in front of the sandbox with a second console
 * behind it) on their own ports, fills the sandbox, measures, and prints one table; the same
 * figures go to bench-results/bench-<time>.json and bench-results/latest.json.
 * Every time figure is a ratio of sides measured in turns in the same run.
 * BENCH_QUICK=1: smaller counts and shorter rounds, for a smoke run.
 * `--only history,proxy`: measure only the named sections (SECTIONS), and the memory row.
 * Exit status: 0 when the table was made (whether or not every goal holds), 1 on a harness error.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import playwrightConfig from "../../playwright.config";
import {
  launchChromium,
  measureFirstPaint,
  measureInteraction,
  measureInteractionFloor,
  measurePageWeight,
} from "./browser";
import { measureDelivery } from "./delivery";
import { fillLogs, type LogFill } from "./fill";
import { measureHandover } from "./handover";
import { measureLayout } from "./layout";
import {
  farUpstreamFigures,
  historyFigures,
  interactionFigures,
  lighthouseFigure,
  lighthouseFloorFigure,
  lighthouseFloorName,
  pageWeightFigures,
  proxyFigures,
  viewersFigure,
  type SideMeasure,
  layoutFigures,
} from "./figures";
import { createHistoryWebhooks, FIRST_QUESTION_LOGS, measureHistory } from "./history";
import { measureStoreHealth } from "./store-health";
import { createApplication, createChannel, createWebhook, signIn, type CreatedWebhook } from "../support/hub";
import { startConsoleProcess, startSandboxProcess, stopAll, type Server } from "../support/server-process";
import { signedInContext } from "../support/signed-in-context";
import { runLighthouse, summarizeRuns, type LighthouseRun } from "./lighthouse";
import {
  alternatingLatency,
  closedLoop,
  get,
  keepAliveAgent,
  throughputInTurns,
  type Side,
  type Target,
} from "./load";
import {
  failingGoals,
  formatCount,
  formatMarkdown,
  formatMiB,
  formatTable,
  writeResult,
  type BenchResult,
  type Figure,
} from "./report";
import { measureScale } from "./sandbox-scale";
import {
  assertPortFree,
  buildInfo,
  cpuMs,
  ensureBareNextBuild,
  ensureBuild,
  peakRssBytes,
  ROOT,
  startBareNextProcess,
  startBareProxyProcess,
  treeTotal,
} from "./servers";
import { median, rotationOrder } from "./stats";
import { watchWithAutoRefresh } from "./viewers";
import { measureInstances, measureOverview, measureWatcher, type WatcherFixture } from "./watching";
import { measureMetrics } from "./metrics";
import { measureOutboxInstances } from "./alert-outbox";
import {
  measureAlertLatency,
  measureDemoIncidents,
  measureFairness,
  measureOutage,
  measureRecovery,
} from "./alert-incidents";

const QUICK = process.env.BENCH_QUICK === "1";

const PLAN = QUICK
  ? {
      rounds: 2,
      roundMs: 800,
      latencySamples: 60,
      farSamples: 30,
      farRounds: 1,
      small: 10_000,
      large: 100_000,
      firstPageSamples: 40,
      deepSamples: 10,
      deliveries: 200,
      interactionRounds: 3,
      lighthouseRuns: 1,
      viewersSeconds: 10,
      history: { finds: 2, findLogs: 10_000, firstQuestions: 2 },
      watch: {
        overviewSamples: 10,
        metricsSamples: 20,
        healthWebhooks: 3,
        steadyWebhooks: 50,
        backfillLogs: 20_000,
        intervalSeconds: 15,
        intervals: 2,
        newMessages: 200,
      },
      alertIntervalSeconds: 5,
    }
  : {
      rounds: 4,
      roundMs: 2000,
      latencySamples: 300,
      farSamples: 100,
      farRounds: 2,
      small: 10_000,
      large: 1_000_000,
      firstPageSamples: 150,
      deepSamples: 25,
      deliveries: 2000,
      interactionRounds: 7,
      lighthouseRuns: 3,
      viewersSeconds: 30,
      history: { finds: 5, findLogs: 30_000, firstQuestions: 3 },
      watch: {
        overviewSamples: 30,
        metricsSamples: 60,
        healthWebhooks: 5,
        steadyWebhooks: 200,
        backfillLogs: 100_000,
        intervalSeconds: 60,
        intervals: 2,
        newMessages: 500,
      },
      alertIntervalSeconds: 10,
    };

/** The parts of the run, in order; `--only a,b` measures just those. */
const SECTIONS = [
  "proxy",
  "far",
  "history",
  "browser",
  "viewers",
  "lighthouse",
  "scale",
  "delivery",
  "overview",
  "metrics",
  "watcher",
  "instances",
  "outbox",
  "alerts",
  "incidents",
  "fairness",
  "handover",
] as const;
type Section = (typeof SECTIONS)[number];
const ONLY = onlySections(process.argv.slice(2));
const measures = (section: Section) => ONLY === null || ONLY.includes(section);

/** `--only history,proxy` or `--only=history`; null (everything) without it. */
function onlySections(args: readonly string[]): Section[] | null {
  const at = args.findIndex((a) => a === "--only" || a.startsWith("--only="));
  if (at < 0) return null;
  const arg = args[at] as string;
  const list = (arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : (args[at + 1] ?? "")).split(",");
  const unknown = list.filter((name) => !(SECTIONS as readonly string[]).includes(name));
  if (unknown.length) {
    process.stderr.write(`--only takes sections separated by commas, of: ${SECTIONS.join(", ")}\n`);
    process.exit(2);
  }
  return list as Section[];
}

const CONCURRENCY = 32;
/** How far away the upstream is made to be, and how many viewers share one webhook. */
const UPSTREAM_DELAY_MS = 25;
/** HISTORY_SCAN_CONCURRENCY of the console behind the delay (its default), which the history's floor reads at too. */
const SCAN_CONCURRENCY = 4;
const VIEWERS = 10;
/** Logs on each of the two webhooks the viewers watch. */
const WATCHED_LOGS = 1000;
/** The watch overview's two stores: watched webhooks and stored logs (the large one 100 k in the smoke run). */
const OVERVIEW_SIDES = {
  small: { webhooks: 10, logs: 10_000 },
  large: { webhooks: 200, logs: QUICK ? 100_000 : 1_000_000 },
};
/** Logs of each webhook whose delivery health is asked of the store and of the hub. */
const HEALTH_LOGS = 20_000;
/** Logs on each webhook the watcher keeps in steady state. */
const STEADY_LOGS = 100;
/**
 * The two-instance figures: how many of the watched webhooks (one instance must keep up with
 * them alone at the interval), the interval, and the lease.
 */
const INSTANCES = { webhooks: 20, intervalSeconds: 10, leaseSeconds: 10, intervals: 2, newMessages: 40 };
/** Alerts in the outbox two instances send, one of them killed mid-send. */
const OUTBOX_INCIDENTS = 20;
/** Incidents timed from the hub's log to the receiver, and the watched webhooks one hub outage fails. */
const ALERTS = { incidents: 20, outageWebhooks: 200 };
/** The fairness row: one application's alert going to this many receivers that never answer. */
const SLOW_DESTINATIONS = 100;

const startedAt = new Date();
const t0 = performance.now();
const log = (line: string) =>
  process.stderr.write(`[bench ${((performance.now() - t0) / 1000).toFixed(1).padStart(5)}s] ${line}\n`);

async function main(): Promise<void> {
  const loadavgAtStart = os.loadavg();
  log(QUICK ? "BENCH_QUICK=1: smoke run with small counts" : "full run (BENCH_QUICK=1 for a smoke run)");
  if (ONLY) log(`only: ${ONLY.join(", ")}`);
  ensureBuild(log);
  ensureBareNextBuild(log);

  const consolePort = Number(process.env.BENCH_CONSOLE_PORT ?? 3300);
  const sandboxPort = Number(process.env.BENCH_SANDBOX_PORT ?? 4300);
  const ports = {
    console: consolePort,
    farConsole: consolePort + 1,
    bareNext: consolePort + 2,
    memoryConsole: consolePort + 3,
    overviewSmall: consolePort + 4,
    overviewLarge: consolePort + 5,
    metricsFewLogs: consolePort + 6,
    demoConsole: consolePort + 7,
    sandbox: sandboxPort,
    bareProxy: Number(process.env.BENCH_BARE_PROXY_PORT ?? sandboxPort + 1),
    delayProxy: sandboxPort + 2,
    demoSandbox: sandboxPort + 3,
    lighthouse: Number(process.env.BENCH_LIGHTHOUSE_PORT ?? consolePort + 2000),
  };
  for (const [what, port] of Object.entries(ports)) await assertPortFree(port, what);
  const tmp = (tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "hub-bench-")));
  const dbPath = path.join(tmp, "sandbox.sqlite");

  try {
    // 1. Applications and webhooks through the sandbox's admin routes, then logs straight into its file.
    let sandbox = await startSandboxProcess({ port: ports.sandbox, dbPath, seed: "none" });
    const app = await createApplication(sandbox.url, "bench");
    const channel = await createChannel(sandbox.url, app.id, "sms");
    const small = await createWebhook(sandbox.url, app.id, "https://hooks.example.com/bench/small");
    const large = await createWebhook(sandbox.url, app.id, "https://hooks.example.com/bench/large");
    const watchOne = await createWebhook(sandbox.url, app.id, "https://hooks.example.com/bench/watch-one");
    const watchMany = await createWebhook(sandbox.url, app.id, "https://hooks.example.com/bench/watch-many");
    const history = await createHistoryWebhooks(sandbox.url, app.id, PLAN.history);
    const healthWebhooks: CreatedWebhook[] = [];
    if (measures("overview")) {
      for (let i = 1; i <= PLAN.watch.healthWebhooks; i++)
        healthWebhooks.push(
          await createWebhook(sandbox.url, app.id, `https://hooks.example.com/bench/health-${i}`),
        );
    }
    const watching =
      measures("watcher") || measures("instances") ? await watcherFixture(sandbox.url, dbPath) : null;
    await sandbox.stop();
    // The million-log webhook is for the sandbox scale figures only.
    const largeCount = measures("scale") ? PLAN.large : 0;
    log(`filling ${formatCount(PLAN.small)} + ${formatCount(largeCount)} logs and the rest into ${dbPath}`);
    const fill = fillLogs(dbPath, [
      {
        webhookId: small.id,
        count: PLAN.small,
        messages: { applicationId: app.id, channelId: channel.id, channelKind: channel.kind },
      },
      { webhookId: large.id, count: largeCount },
      { webhookId: watchOne.id, count: WATCHED_LOGS },
      { webhookId: watchMany.id, count: WATCHED_LOGS },
      ...(measures("history") ? history.fills : []),
      ...(watching?.fills ?? []),
      ...healthWebhooks.map((w) => ({ webhookId: w.id, count: HEALTH_LOGS })),
    ]);
    log(
      `filled ${formatCount(fill.rows)} logs in ${fill.seconds.toFixed(1)} s (${formatCount(fill.rows / fill.seconds)} rows/s)`,
    );

    sandbox = await startSandboxProcess({ port: ports.sandbox, dbPath, seed: "none" });
    const sessionSecret = randomBytes(32).toString("base64url");
    // Each console keeps its copies of webhooks' histories in a store of its own, empty at the start.
    const ownStore = (name: string) => ({ WATCH_DB: path.join(tmp, `${name}.sqlite`), DATABASE_URL: "" });
    const [consoleServer, bareProxy, bareNext, delayProxy] = await Promise.all([
      startConsoleProcess({
        port: ports.console,
        hubBaseUrl: sandbox.url,
        sessionSecret,
        env: ownStore("console"),
      }),
      startBareProxyProcess({ port: ports.bareProxy, upstream: sandbox.url }),
      startBareNextProcess({ port: ports.bareNext, upstream: sandbox.url }),
      startBareProxyProcess({
        port: ports.delayProxy,
        upstream: sandbox.url,
        delayMs: UPSTREAM_DELAY_MS,
        name: "delay proxy",
      }),
    ]);
    // The viewers sign in one by one, eleven times within the minute.
    const farConsole = await startConsoleProcess({
      port: ports.farConsole,
      hubBaseUrl: delayProxy.url,
      sessionSecret,
      name: "console behind the delay",
      env: {
        ...ownStore("console-far"),
        SIGN_IN_RATE_LIMIT_PER_MINUTE: "100",
        HISTORY_SCAN_CONCURRENCY: String(SCAN_CONCURRENCY),
      },
    });
    for (const s of [sandbox, consoleServer, bareNext, bareProxy, delayProxy, farConsole])
      log(`${s.name} ${s.url} (pid ${s.pid})`);
    const cookie = await signIn(consoleServer.url, app.apiKey);

    const logsPath = `/v1/organization/webhook/${small.id}/webhook-log?limit=50`;
    const byKey = { "x-api-key": app.apiKey };
    const targets = {
      console: { url: `${consoleServer.url}/api/webhooks/${small.id}/logs?limit=50`, headers: { cookie } },
      bareNext: { url: `${bareNext.url}/api/webhooks/${small.id}/logs?limit=50`, headers: byKey },
      direct: { url: `${sandbox.url}${logsPath}`, headers: byKey },
      bareNode: { url: `${bareProxy.url}${logsPath}`, headers: byKey },
      farConsole: {
        url: `${farConsole.url}/api/webhooks/${small.id}/logs?limit=50`,
        headers: { cookie: await signIn(farConsole.url, app.apiKey) },
      },
      farDirect: { url: `${delayProxy.url}${logsPath}`, headers: byKey },
    } satisfies Record<string, Target>;
    for (const name of ["console", "bareNext", "bareNode", "farConsole", "farDirect"] as const)
      await assertSameData(name, targets[name], targets.direct);

    const figures: Figure[] = [];
    const errors: string[] = [];
    /**
     * Runs one part of a section (unless `--only` leaves it out); a part that cannot measure gets
     * a "not measured" row and the run ends with exit 1.
     */
    const part = async (section: Section, names: string[], measure: () => Promise<Figure[]>) => {
      if (!measures(section)) return;
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
    const cpuOf = (server: Server) => () => treeTotal(server.pid, cpuMs);
    await part(
      "proxy",
      [
        "proxy throughput ÷ framework floor",
        "proxy latency ÷ framework floor",
        "framework floor (reference)",
        "proxy ÷ sandbox direct (reference)",
        "node:http hop (reference)",
      ],
      () =>
        proxyPart({
          console: { target: targets.console, cpuMs: cpuOf(consoleServer) },
          bareNext: { target: targets.bareNext, cpuMs: cpuOf(bareNext) },
          direct: { target: targets.direct, cpuMs: cpuOf(sandbox) },
          bareNode: { target: targets.bareNode, cpuMs: cpuOf(bareProxy) },
        }),
    );
    await part(
      "far",
      [
        `upstream ${UPSTREAM_DELAY_MS} ms away, one at a time`,
        `upstream ${UPSTREAM_DELAY_MS} ms away, ${CONCURRENCY} concurrent (reference)`,
      ],
      () => farUpstreamPart(targets.farConsole, targets.farDirect),
    );
    await part(
      "history",
      [
        `history find, upstream ${UPSTREAM_DELAY_MS} ms away`,
        "history find, loopback (reference)",
        `history, a question on an unwatched webhook of ${formatCount(FIRST_QUESTION_LOGS)} logs, upstream ${UPSTREAM_DELAY_MS} ms away`,
        "history, two identical questions at once",
        "history, the next question: hub calls",
        "history memory, making a copy (reference)",
        "history memory, CSV export from a copy ÷ making it, per log",
      ],
      async () => {
        const measured = await measureHistory({
          apiKey: app.apiKey,
          sandboxUrl: sandbox.url,
          delayProxyUrl: delayProxy.url,
          far: {
            url: farConsole.url,
            pid: farConsole.pid,
            cookie: targets.farConsole.headers.cookie,
            otherCookie: await signIn(farConsole.url, app.apiKey),
          },
          concurrency: SCAN_CONCURRENCY,
          loopback: { url: consoleServer.url, pid: consoleServer.pid, cookie },
          warmupWebhookId: small.id,
          webhooks: history.webhooks,
          memoryConsole: { port: ports.memoryConsole, sessionSecret, storeDir: tmp },
          log,
        });
        return historyFigures(measured, UPSTREAM_DELAY_MS);
      },
    );

    const browser = measures("browser") || measures("viewers") ? await launchChromium() : null;
    try {
      await part(
        "browser",
        [
          "page weight, first load",
          "page weight, after first load (reference)",
          "first paint",
          "interaction, Status change",
          "interaction, Next page",
          "interaction ÷ round trip (reference)",
          "interaction floor (reference)",
          "first log row from the top, Busy shop, 1400×900",
          "first log card from the top, Busy shop, 390×844",
          "Overview height with the demo, 1400×900",
          "Overview, first watched webhook on a phone (390×844)",
        ],
        async () => [
          ...(await browserPart(browser!, consoleServer, cookie, small.id)),
          ...(await layoutPart(
            browser!,
            { console: ports.demoConsole, sandbox: ports.demoSandbox },
            tmp,
            sessionSecret,
          )),
        ],
      );
      await part("viewers", [`${VIEWERS} viewers, auto-refresh`], async () => {
        log(`${VIEWERS} viewers and one, auto-refresh on, ${PLAN.viewersSeconds} s`);
        const [one, many] = await watchWithAutoRefresh(browser!, {
          consoleUrl: farConsole.url,
          apiKey: app.apiKey,
          proxyUrl: delayProxy.url,
          groups: [
            { webhookId: watchOne.id, viewers: 1 },
            { webhookId: watchMany.id, viewers: VIEWERS },
          ],
          durationMs: PLAN.viewersSeconds * 1000,
        });
        return [viewersFigure(one!, many!, PLAN.viewersSeconds)];
      });
    } finally {
      await browser?.close();
    }
    const floors = ["bare", "secured"] as const;
    for (const preset of ["mobile", "desktop"] as const) {
      const names = [`Lighthouse, ${preset}`, ...floors.map((floor) => lighthouseFloorName(preset, floor))];
      await part("lighthouse", names, async () => {
        const chromePath = playwrightConfig.use?.launchOptions?.executablePath ?? "/usr/bin/chromium";
        const pages = {
          // The page's own address (with its ?app=): the cookie goes as an extra header, which
          // Chrome does not send again after a redirect (Lighthouse would measure the login page).
          console: { url: await ownAddress(`${consoleServer.url}/webhooks/${small.id}`, cookie), cookie },
          bare: { url: `${bareNext.url}/`, cookie: undefined },
          secured: { url: `${bareNext.url}/secured`, cookie: undefined },
        };
        // The pages take turns (console, bare, secured, secured, bare, console, ...), so the
        // machine's load weighs on all alike.
        const sides = ["console", ...floors] as const;
        const runs: Record<(typeof sides)[number], LighthouseRun[]> = { console: [], bare: [], secured: [] };
        for (const index of rotationOrder(sides.length, PLAN.lighthouseRuns)) {
          const side = sides[index]!;
          const run = runs[side].length + 1;
          log(`Lighthouse, ${preset}: ${side} page, run ${run} of ${PLAN.lighthouseRuns}`);
          runs[side].push(
            await runLighthouse({
              ...pages[side],
              preset,
              port: ports.lighthouse,
              chromePath,
              label: `${preset}/${side}-${run}`,
              log,
            }),
          );
        }
        const page = summarizeRuns(preset, runs.console);
        const floorSummaries = {
          bare: summarizeRuns(preset, runs.bare),
          secured: summarizeRuns(preset, runs.secured),
        };
        return [
          lighthouseFigure(page, floorSummaries.secured),
          ...floors.map((floor) => lighthouseFloorFigure(floor, floorSummaries[floor], page)),
        ];
      });
    }
    await part("scale", ["sandbox scale, first page", "sandbox scale, deep offset"], () => {
      log("sandbox scale");
      return measureScale({
        sandboxUrl: sandbox.url,
        apiKey: app.apiKey,
        small: { webhookId: small.id, count: PLAN.small },
        large: { webhookId: large.id, count: PLAN.large },
        firstPageSamples: PLAN.firstPageSamples,
        deepSamples: PLAN.deepSamples,
      });
    });
    await part("delivery", ["sandbox delivery"], async () => {
      log(`sandbox delivery of ${formatCount(PLAN.deliveries)} messages`);
      return [await measureDelivery(sandbox.url, PLAN.deliveries)];
    });
    const watchEnv = { sessionSecret, watchSecret: randomBytes(32).toString("base64url"), tmp, log };
    await part("overview", ["watch overview"], async () => [
      await measureOverview({
        env: watchEnv,
        apiKey: app.apiKey,
        proxyUrl: bareProxy.url,
        ports: [ports.overviewSmall, ports.overviewLarge],
        sides: OVERVIEW_SIDES,
        samples: PLAN.watch.overviewSamples,
      }),
    ]);
    await part("overview", ["delivery health from the store"], async () => [
      await measureStoreHealth({
        env: watchEnv,
        apiKey: app.apiKey,
        sandboxUrl: sandbox.url,
        proxyUrl: bareProxy.url,
        ports: [ports.overviewSmall, ports.overviewLarge],
        webhooks: healthWebhooks,
        logs: HEALTH_LOGS,
      }),
    ]);
    await part("metrics", ["metrics scrape", "metrics scrape (reference)"], () =>
      measureMetrics(
        {
          env: watchEnv,
          apiKey: app.apiKey,
          proxyUrl: bareProxy.url,
          ports: [ports.overviewSmall, ports.overviewLarge],
          sides: OVERVIEW_SIDES,
          samples: PLAN.watch.metricsSamples,
        },
        ports.metricsFewLogs,
      ),
    );
    await part(
      "watcher",
      [
        "watcher, steady state with nothing new",
        "watcher, new logs",
        "watcher memory",
        `watcher, backfill, hub ${UPSTREAM_DELAY_MS} ms away`,
      ],
      () =>
        measureWatcher({
          env: watchEnv,
          fixture: watching!.fixture,
          countingProxyUrl: bareProxy.url,
          farProxyUrl: delayProxy.url,
          delayMs: UPSTREAM_DELAY_MS,
          intervalSeconds: PLAN.watch.intervalSeconds,
          steadyIntervals: PLAN.watch.intervals,
          newMessages: PLAN.watch.newMessages,
        }),
    );
    await part(
      "instances",
      ["watcher, two instances on one PostgreSQL", "watcher, one of two instances killed"],
      () =>
        measureInstances({
          env: watchEnv,
          fixture: watching!.fixture,
          countingProxyUrl: bareProxy.url,
          ...INSTANCES,
        }),
    );
    await part("outbox", [`alerts, two instances, ${OUTBOX_INCIDENTS} incidents, one killed mid-send`], () =>
      measureOutboxInstances({ env: watchEnv, hubBaseUrl: sandbox.url, incidents: OUTBOX_INCIDENTS }),
    );
    await part(
      "alerts",
      [`alert latency, ${ALERTS.incidents} incidents, poll interval ${PLAN.alertIntervalSeconds} s`],
      () =>
        measureAlertLatency({
          env: watchEnv,
          sandboxUrl: sandbox.url,
          intervalSeconds: PLAN.alertIntervalSeconds,
          incidents: ALERTS.incidents,
        }),
    );
    await part(
      "alerts",
      [`alerts, ${ALERTS.outageWebhooks} watched webhooks failing at once (hub outage)`],
      () =>
        measureOutage({
          env: watchEnv,
          sandboxUrl: sandbox.url,
          intervalSeconds: PLAN.alertIntervalSeconds,
          webhooks: ALERTS.outageWebhooks,
        }),
    );
    await part("incidents", [`firing incidents for the failing demo webhooks`], async () => {
      const demo = await startSandboxProcess({
        port: ports.demoSandbox,
        dbPath: path.join(tmp, "demo.sqlite"),
        seed: "demo",
      });
      try {
        return await measureDemoIncidents({
          env: watchEnv,
          demoSandboxUrl: demo.url,
          intervalSeconds: PLAN.alertIntervalSeconds,
        });
      } finally {
        await demo.stop();
      }
    });
    await part(
      "incidents",
      [`"recovered" after a fixed endpoint's successes, poll interval ${PLAN.alertIntervalSeconds} s`],
      () =>
        measureRecovery({
          env: watchEnv,
          sandboxUrl: sandbox.url,
          intervalSeconds: PLAN.alertIntervalSeconds,
        }),
    );
    await part(
      "fairness",
      [
        `alert latency with one application's ${SLOW_DESTINATIONS} slow destinations, ` +
          `${ALERTS.incidents} incidents of others, poll interval ${PLAN.alertIntervalSeconds} s`,
      ],
      () =>
        measureFairness({
          env: watchEnv,
          sandboxUrl: sandbox.url,
          intervalSeconds: PLAN.alertIntervalSeconds,
          incidents: ALERTS.incidents,
          slowDestinations: SLOW_DESTINATIONS,
        }),
    );
    await part(
      "handover",
      ["Find across watched webhooks", "support bundle of a 1,000-failure incident"],
      () =>
        measureHandover({
          env: watchEnv,
          apiKey: app.apiKey,
          large: OVERVIEW_SIDES.large,
          smallLogs: 10_000,
          samples: PLAN.watch.overviewSamples,
          failures: [100, 1000],
        }),
    );
    figures.push(memoryFigure({ console: consoleServer, "bare Next": bareNext, sandbox }));
    await stopAll();

    const result: BenchResult = {
      startedAt: startedAt.toISOString(),
      quick: QUICK,
      only: ONLY,
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
    const failing = failingGoals(figures, errors);
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

/**
 * The sandbox's side of the watcher's figures, made while it runs (its logs are filled after):
 * healthy webhooks with a short history under one key, two that receive new messages under
 * another, and one with a long history to backfill under a third.
 */
async function watcherFixture(
  sandboxUrl: string,
  sandboxDb: string,
): Promise<{ fixture: WatcherFixture; fills: LogFill[] }> {
  const steadyApp = await createApplication(sandboxUrl, "watched");
  const steady = [];
  for (let i = 0; i < PLAN.watch.steadyWebhooks; i++)
    steady.push(await createWebhook(sandboxUrl, steadyApp.id, `https://hooks.example.com/watched/${i + 1}`));
  const freshApp = await createApplication(sandboxUrl, "watched, new messages");
  const channel = await createChannel(sandboxUrl, freshApp.id, "sms");
  const receiver = `${sandboxUrl}/_sandbox/receivers/ok`;
  const fresh = [
    await createWebhook(sandboxUrl, freshApp.id, receiver),
    await createWebhook(sandboxUrl, freshApp.id, receiver),
  ];
  const backfillApp = await createApplication(sandboxUrl, "watched, long history");
  const backfill = await createWebhook(sandboxUrl, backfillApp.id, "https://hooks.example.com/watched/long");
  const backfillLogs = measures("watcher") ? PLAN.watch.backfillLogs : 0;
  return {
    fixture: {
      sandboxUrl,
      sandboxDb,
      steady: { apiKey: steadyApp.apiKey, webhooks: steady },
      fresh: { apiKey: freshApp.apiKey, channel, webhooks: fresh },
      backfill: { apiKey: backfillApp.apiKey, webhook: backfill, logs: backfillLogs },
    },
    fills: [
      ...steady.map((webhook) => ({ webhookId: webhook.id, count: STEADY_LOGS })),
      { webhookId: backfill.id, count: backfillLogs },
    ],
  };
}

/** The temporary folder of the sandbox's database, removed however the run ends (a full run fills it with a million logs). */
let tmpDir: string | undefined;

function removeTmp(): void {
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
  tmpDir = undefined;
}

/** Every side must answer what the sandbox answers, or the comparison means nothing. */
async function assertSameData(name: string, side: Target, direct: Target): Promise<void> {
  const agent = keepAliveAgent(1);
  try {
    const [a, b] = [await get(agent, side, true), await get(agent, direct, true)];
    if (a.status !== 200 || b.status !== 200)
      throw new Error(
        `${name} HTTP ${a.status}, sandbox HTTP ${b.status}: ${a.body.toString().slice(0, 300)}`,
      );
    const ids = (buf: Buffer) =>
      (JSON.parse(buf.toString("utf8")) as { data: Array<{ id: string }> }).data.map((l) => l.id).join();
    if (ids(a.body) !== ids(b.body)) throw new Error(`${name} and the sandbox list different logs`);
  } finally {
    agent.destroy();
  }
}

/**
 * The console, the bare Next route handler, the sandbox direct and the bare node:http hop:
 * throughput at CONCURRENCY in turns (forwards then backwards), then latency one request at a
 * time, the four taking turns request by request.
 */
async function proxyPart(
  sides: Record<"console" | "bareNext" | "direct" | "bareNode", Side>,
): Promise<Figure[]> {
  const names = Object.keys(sides) as Array<keyof typeof sides>;
  const list = names.map((n) => sides[n]);
  log("warming up the four sides");
  for (const side of list) await closedLoop(side.target, CONCURRENCY, QUICK ? 500 : 1000);

  log(`throughput: ${PLAN.rounds} rounds of ${PLAN.roundMs} ms per side, ${CONCURRENCY} concurrent`);
  const throughput = await throughputInTurns(list, {
    rounds: PLAN.rounds,
    roundMs: PLAN.roundMs,
    concurrency: CONCURRENCY,
  });
  const failed = throughput.some((t) => t.failed > 0);
  if (failed)
    throw new Error(
      `requests failed during the throughput test: ${JSON.stringify(Object.fromEntries(names.map((n, i) => [n, throughput[i]?.failures])))}`,
    );

  log(`latency: ${PLAN.latencySamples} requests per side, one at a time`);
  const latency = await alternatingLatency(
    list.map((s) => s.target),
    PLAN.latencySamples,
  );
  const measure = (i: number): SideMeasure => ({
    rps: throughput[i]!.rps,
    p50Ms: median(latency[i]!),
    cpuMsPerRequest: throughput[i]!.cpuMsPerRequest,
  });
  const [c, n, d, b] = [0, 1, 2, 3].map(measure) as [SideMeasure, SideMeasure, SideMeasure, SideMeasure];
  return proxyFigures({ console: c, bareNext: n, direct: d, bareNode: b }, CONCURRENCY);
}

/** The console behind the delay proxy ÷ the delay proxy called directly: one at a time, then at CONCURRENCY. */
async function farUpstreamPart(viaConsole: Target, direct: Target): Promise<Figure[]> {
  log(
    `upstream ${UPSTREAM_DELAY_MS} ms away: ${PLAN.farSamples} requests per side one at a time, then ${CONCURRENCY} concurrent`,
  );
  // The concurrent rounds first: they also warm the second console (started for this part, its
  // code not yet optimised by V8), so the one-at-a-time figure is of a console in steady state.
  const [c, d] = await throughputInTurns([{ target: viaConsole }, { target: direct }], {
    rounds: PLAN.farRounds,
    roundMs: QUICK ? 800 : 1500,
    concurrency: CONCURRENCY,
  });
  const [cl, dl] = await alternatingLatency([viaConsole, direct], PLAN.farSamples);
  if (c!.failed || d!.failed)
    throw new Error(
      `requests failed: console ${JSON.stringify(c!.failures)}, direct ${JSON.stringify(d!.failures)}`,
    );
  return farUpstreamFigures({
    delayMs: UPSTREAM_DELAY_MS,
    oneAtATime: { consoleP50Ms: median(cl!), directP50Ms: median(dl!), samples: PLAN.farSamples },
    concurrent: {
      concurrency: CONCURRENCY,
      console: { rps: c!.rps, p50Ms: c!.p50Ms },
      direct: { rps: d!.rps, p50Ms: d!.p50Ms },
    },
  });
}

/** The webhook page's own address: one without `?app=` is sent on (307) to the current application's. */
async function ownAddress(url: string, cookie: string): Promise<string> {
  const response = await fetch(url, { headers: { cookie }, redirect: "manual" });
  const location = response.headers.get("location");
  return location ? new URL(location, url).toString() : url;
}

async function browserPart(
  browser: Browser,
  consoleServer: Server,
  cookie: string,
  webhookId: string,
): Promise<Figure[]> {
  const pageUrl = await ownAddress(`${consoleServer.url}/webhooks/${webhookId}`, cookie);
  const context = await signedInContext(browser, consoleServer.url, cookie);
  const app = new URL(pageUrl).searchParams.get("app");
  const appParam = app ? `&app=${app}` : "";
  try {
    log("page weight");
    const weight = pageWeightFigures(await measurePageWeight(context, pageUrl));
    log("first paint");
    const paint = await measureFirstPaint(context, pageUrl, cookie);
    log(`interaction: ${PLAN.interactionRounds} rounds`);
    const actions = await measureInteraction(context, {
      pageUrl,
      webhookId,
      rounds: PLAN.interactionRounds,
      actions: {
        "Next page": (page) => page.getByRole("link", { name: "Next page" }).click(),
        "Status filter": (page) => chooseStatus(page, "Failed"),
      },
      // With the page's own ?app=, as the page asks, so the request an action made is recognised.
      apiFor: {
        "Next page": (size) => `/api/webhooks/${webhookId}/logs?offset=${size}&limit=${size}${appParam}`,
        "Status filter": (size) =>
          `/api/webhooks/${webhookId}/logs?offset=0&limit=${size}&status=Failed${appParam}`,
      },
    });
    log(`interaction floor: ${PLAN.interactionRounds} rounds`);
    const floor = await measureInteractionFloor(context, {
      pageUrl,
      webhookId,
      rounds: PLAN.interactionRounds,
    });
    const byName = (name: string) => {
      const found = actions.find((a) => a.name === name);
      if (!found) throw new Error(`no measurement of ${name}`);
      return found;
    };
    const interaction = interactionFigures(
      { status: byName("Status filter"), nextPage: byName("Next page") },
      floor,
      PLAN.interactionRounds,
    );
    return [...weight, paint, ...interaction];
  } finally {
    await context.close();
  }
}

/**
 * The layout figures, against a console of their own in front of a demo-seeded sandbox (its
 * webhooks watched out of the box, its watcher reading every few seconds, its store in `tmp`).
 */
async function layoutPart(
  browser: Browser,
  ports: { console: number; sandbox: number },
  tmp: string,
  sessionSecret: string,
): Promise<Figure[]> {
  const sandbox = await startSandboxProcess({
    port: ports.sandbox,
    dbPath: path.join(tmp, "layout-demo.sqlite"),
    seed: "demo",
  });
  try {
    const demoConsole = await startConsoleProcess({
      port: ports.console,
      hubBaseUrl: sandbox.url,
      sessionSecret,
      name: "console on the demo",
      env: { WATCH_DB: path.join(tmp, "demo-watch.sqlite"), WATCH_INTERVAL_SECONDS: "5" },
    });
    try {
      return layoutFigures(await measureLayout(browser, demoConsole.url, log));
    } finally {
      await demoConsole.stop();
    }
  } finally {
    await sandbox.stop();
  }
}

/** The "Status" filter: a native select (combobox). */
async function chooseStatus(page: Page, value: string): Promise<void> {
  await page.getByRole("combobox", { name: "Status" }).selectOption(value);
}

function memoryFigure(servers: Record<string, Server>): Figure {
  const bytes = Object.fromEntries(
    Object.entries(servers).map(([name, s]) => [name, treeTotal(s.pid, peakRssBytes) ?? Number.NaN]),
  );
  return {
    figure: "memory",
    measured: `peak RSS: ${Object.entries(bytes)
      .map(([name, b]) => `${name} ${formatMiB(b)}`)
      .join(", ")} (VmHWM after the run)`,
    goal: "report",
    holds: "report",
    details: { peakRssBytes: bytes },
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
