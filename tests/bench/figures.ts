/**
 * The rows of the bench's table, built from what was measured: the goals live here, with the
 * arithmetic that judges them, so both are unit-tested (figures.test.ts). Time figures are
 * guards against real regressions, set loose enough that a shared machine's noise does not trip
 * them; "report" rows explain the others and are never judged.
 */
import type { FindMeasure, FirstQuestionMeasure, HistoryMeasures } from "./history";
import type { ScriptWeight } from "./browser";
import type { Category, LighthouseSummary, Preset } from "./lighthouse";
import {
  formatCount,
  formatKb,
  formatMiB,
  formatMs,
  formatRatio,
  goalText,
  judge,
  ratioFigure,
  type Figure,
  type Goal,
} from "./report";
import { median, ratio } from "./stats";
import type { ViewerCalls } from "./viewers";

/** Which floor a page's mobile performance is judged against, and how far under it it may be. */
export interface UnderFloor {
  pointsUnderSecuredFloor: number;
}

export const GOALS = {
  /** Console ÷ the bare Next route handler, measured in the same rotation. */
  throughputVsFramework: { atLeast: 0.5 },
  latencyVsFramework: { atMost: 1.3 },
  /** Console ÷ the upstream called directly, with the upstream 25 ms away, one at a time. */
  latencyFarUpstream: { atMost: 1.3 },
  /** Upstream calls of ten viewers ÷ one viewer's, Auto-refresh on. */
  viewers: { atMost: 1.2 },
  /** An action until its rows show ÷ (the browser's floor + one API round trip): a Status change, Next page. */
  interaction: { status: { atMost: 2 }, nextPage: { atMost: 1.5 } },
  /** First-load JavaScript of the webhook page, gzip bytes: bytes are not noisy, so this one is absolute. */
  firstLoadGzip: { atMost: 165_000 },
  /**
   * Where the answers end and the rows begin, with the sandbox's demo: the busy webhook's first
   * log row from the top of its page at 1400 × 900 and on a phone (two screens of 844 px), the
   * Overview's height at 1400 × 900, and the first watched webhook on a phone (above the fold).
   */
  layout: {
    firstRowDesktop: { atMost: 1100 },
    firstRowPhone: { atMost: 1688 },
    overviewDesktop: { atMost: 2500 },
    overviewFirstRowPhone: { atMost: 844 },
  },
  /** Find a delivery 5,000 deep through the console ÷ the bench's own page walk, upstream 25 ms away. */
  historyFind: { atMost: 0.4 },
  /**
   * A question on a webhook of 20,000 logs with no copy yet ÷ the bench reading its 400 pages at
   * HISTORY_SCAN_CONCURRENCY, upstream 25 ms away (the in-memory scan's floor).
   */
  firstQuestion: { atMost: 1.1 },
  /** The same question again, from the copy the first made, ÷ that same floor. */
  secondQuestion: { atMost: 0.1 },
  /** Upstream calls of two identical history questions at once ÷ one question's. */
  sharedQuestions: { atMost: 1.1 },
  /** Upstream calls of the next question on the copy a question made. */
  nextQuestionCalls: { atMost: 1 },
  /**
   * RSS growth per log of the largest CSV export from a copy ÷ per log while a question made that
   * copy: the file itself must not be held.
   */
  exportMemory: { atMost: 1.5 },
  /** Watch overview time to first byte, 200 watched webhooks and 1 M stored logs ÷ 10 and 10 k. */
  overviewScale: { atMost: 2 },
  /** Find across 200 watched webhooks and 1 M stored logs ÷ Find inside one webhook of 10 k logs, both from the store. */
  findAcross: { atMost: 2 },
  /** A support bundle's time per failure, 1,000-failure incident ÷ 100-failure one. */
  bundleGrowth: { atMost: 2 },
  /** A /metrics scrape, 200 watched webhooks and 1 M stored logs ÷ 10 and 10 k. */
  metricsScale: { atMost: 2 },
  /** Hub calls while /metrics is scraped: it answers from the store. */
  metricsCalls: { atMost: 0 },
  /** Upstream calls the watch overview makes: it answers from the store. */
  overviewCalls: { atMost: 0 },
  /** Delivery health of a watched webhook with 20,000 logs from the store ÷ from reading the hub. */
  storeHealth: { atMost: 0.1 },
  /** Upstream calls while the store answers delivery health. */
  storeHealthCalls: { atMost: 0 },
  /** Watcher, nothing new: upstream calls per watched webhook per interval. */
  steadyCalls: { atMost: 2 },
  /** Watcher, new logs: calls beyond a poll's own two per 50 new logs ("about 1"). */
  newLogCalls: { atMost: 1.1 },
  /** Backfill time ÷ (pages × the hub's delay ÷ WATCH_CONCURRENCY). */
  backfill: { atMost: 1.5 },
  /** Upstream calls of two watcher instances on one PostgreSQL ÷ one instance's. */
  twoInstances: { atMost: 1.1 },
  /** From an instance's death until its webhooks are polled by another, in lease periods. */
  takeOverLeases: { atMost: 2 },
  /**
   * Lighthouse on the signed-in webhook page. On mobile no page that sends the console's COOP
   * header reaches an absolute score on a shared machine, so performance is judged against the
   * bare page sent with the same headers, measured in turns with it.
   */
  lighthouse: {
    mobile: { performance: { pointsUnderSecuredFloor: 5 }, accessibility: 100, "best-practices": 100 },
    desktop: { performance: 98, accessibility: 100, "best-practices": 100 },
  } satisfies Record<Preset, Record<Category, number | UnderFloor>>,
  /** Total Blocking Time on mobile, the webhook page ÷ the secured floor's, measured in turns. */
  mobileBlockingVsFloor: { atMost: 1.5 },
} as const satisfies Record<string, Goal | object>;

/** What was measured of one side of the proxy comparison. */
export interface SideMeasure {
  rps: number;
  /** One request at a time. */
  p50Ms: number;
  cpuMsPerRequest: number | null;
}

const cpu = (side: SideMeasure) => formatMs(side.cpuMsPerRequest ?? Number.NaN);

/**
 * The console against the framework's floor (goals), and for reference the floor and the console
 * against the sandbox called directly, and a bare node:http hop.
 */
export function proxyFigures(
  sides: { console: SideMeasure; bareNext: SideMeasure; direct: SideMeasure; bareNode: SideMeasure },
  concurrency: number,
): Figure[] {
  const { console: c, bareNext: n, direct: d, bareNode: b } = sides;
  const rps = (x: SideMeasure, y: SideMeasure) => `${formatCount(x.rps)} ÷ ${formatCount(y.rps)} req/s`;
  const p50 = (x: SideMeasure, y: SideMeasure) => `p50 ${formatMs(x.p50Ms)} ÷ ${formatMs(y.p50Ms)}`;
  const directThroughput = ratio(c.rps, d.rps);
  const directLatency = ratio(c.p50Ms, d.p50Ms);
  return [
    ratioFigure(
      "proxy throughput ÷ framework floor",
      ratio(c.rps, n.rps),
      GOALS.throughputVsFramework,
      `${rps(c, n)}, ${concurrency} concurrent, keep-alive; CPU per request: console ${cpu(c)}, bare Next ${cpu(n)}`,
      {
        consoleRps: c.rps,
        bareNextRps: n.rps,
        consoleCpuMsPerRequest: c.cpuMsPerRequest,
        bareNextCpuMsPerRequest: n.cpuMsPerRequest,
      },
    ),
    ratioFigure(
      "proxy latency ÷ framework floor",
      ratio(c.p50Ms, n.p50Ms),
      GOALS.latencyVsFramework,
      `${p50(c, n)}, one at a time`,
      { consoleP50Ms: c.p50Ms, bareNextP50Ms: n.p50Ms },
    ),
    {
      figure: "framework floor (reference)",
      measured:
        `a bare Next route handler passing the call through (no session, no checks) ÷ the sandbox direct: ` +
        `throughput ${formatRatio(ratio(n.rps, d.rps))} (${rps(n, d)}, CPU ${cpu(n)} ÷ ${cpu(d)} per request), ` +
        `latency ${formatRatio(ratio(n.p50Ms, d.p50Ms))} (${p50(n, d)})`,
      goal: "report",
      holds: "report",
      details: {
        throughputRatio: ratio(n.rps, d.rps),
        latencyRatio: ratio(n.p50Ms, d.p50Ms),
        bareNext: n,
        direct: d,
      },
    },
    {
      figure: "proxy ÷ sandbox direct (reference)",
      measured:
        `throughput ${formatRatio(directThroughput)} (${rps(c, d)}), latency ${formatRatio(directLatency)} (${p50(c, d)}): ` +
        "the framework's floor is most of it",
      goal: "report",
      holds: "report",
      details: { throughputRatio: directThroughput, latencyRatio: directLatency, console: c, direct: d },
    },
    {
      figure: "node:http hop (reference)",
      measured:
        `a bare node:http pass-through (no Next) ÷ the sandbox direct: throughput ${formatRatio(ratio(b.rps, d.rps))} ` +
        `(${rps(b, d)}, CPU ${cpu(b)} per request), latency ${formatRatio(ratio(b.p50Ms, d.p50Ms))} (${p50(b, d)})`,
      goal: "report",
      holds: "report",
      details: {
        throughputRatio: ratio(b.rps, d.rps),
        latencyRatio: ratio(b.p50Ms, d.p50Ms),
        bareNode: b,
        direct: d,
      },
    },
  ];
}

/** The console in front of an upstream `delayMs` away ÷ that upstream called directly. */
export function farUpstreamFigures(input: {
  delayMs: number;
  oneAtATime: { consoleP50Ms: number; directP50Ms: number; samples: number };
  concurrent: {
    concurrency: number;
    console: { rps: number; p50Ms: number };
    direct: { rps: number; p50Ms: number };
  };
}): Figure[] {
  const { oneAtATime: one, concurrent: many } = input;
  const loadLatency = ratio(many.console.p50Ms, many.direct.p50Ms);
  const throughput = ratio(many.console.rps, many.direct.rps);
  return [
    ratioFigure(
      `upstream ${input.delayMs} ms away, one at a time`,
      ratio(one.consoleP50Ms, one.directP50Ms),
      GOALS.latencyFarUpstream,
      `p50 ${formatMs(one.consoleP50Ms)} through the console ÷ ${formatMs(one.directP50Ms)} direct`,
      { ...one, delayMs: input.delayMs },
    ),
    {
      figure: `upstream ${input.delayMs} ms away, ${many.concurrency} concurrent (reference)`,
      measured:
        `latency ${formatRatio(loadLatency)} (p50 ${formatMs(many.console.p50Ms)} ÷ ${formatMs(many.direct.p50Ms)}), ` +
        `throughput ${formatRatio(throughput)} (${formatCount(many.console.rps)} ÷ ${formatCount(many.direct.rps)} req/s)`,
      goal: "report",
      holds: "report",
      details: { latencyRatio: loadLatency, throughputRatio: throughput, ...many, delayMs: input.delayMs },
    },
  ];
}

/** Upstream calls of many viewers of one webhook ÷ one viewer's, over the same time. */
export function viewersFigure(one: ViewerCalls, many: ViewerCalls, seconds: number): Figure {
  if (one.total === 0)
    throw new Error(`one viewer with Auto-refresh on made no upstream call in ${seconds} s`);
  return ratioFigure(
    `${many.viewers} viewers, auto-refresh`,
    ratio(many.total, one.total),
    GOALS.viewers,
    `${many.total} upstream calls for ${many.viewers} viewers of one webhook ÷ ${one.total} for one viewer of another, ${seconds} s`,
    { seconds, one, many },
  );
}

/** What the interaction measurement reports per action: medians over its rounds. */
export interface ActionMeasure {
  name: string;
  /** Action until its rows show. */
  actionMs: number;
  /** One API round trip from the page, for the same data. */
  tripMs: number;
  /** Whether the action asked the server for its rows (false: they were prefetched). */
  madeRequest: boolean;
  /** Where the time went (median phases), and what was asked of the server: kept in the JSON. */
  phases?: unknown;
  requests?: string[];
  samples?: unknown;
}

/**
 * Interaction against the browser's own floor (a plain DOM swap of the same rows) plus one API
 * round trip for the same rows, which is what any console must spend; for reference, each
 * action ÷ one round trip and the floor itself.
 */
export function interactionFigures(
  actions: { status: ActionMeasure; nextPage: ActionMeasure },
  floor: { swapMs: number; tripMs: number },
  rounds: number,
): Figure[] {
  const { status, nextPage } = actions;
  const row = (figure: string, action: ActionMeasure, goal: Goal) =>
    ratioFigure(
      figure,
      ratio(action.actionMs, floor.swapMs + action.tripMs),
      goal,
      `${formatMs(action.actionMs)}${action.madeRequest ? "" : ", rows prefetched"} ÷ (floor ${formatMs(floor.swapMs)} + ` +
        `round trip ${formatMs(action.tripMs)}); medians of ${rounds}`,
      { ...action, floorMs: floor.swapMs },
    );
  const perTrip = [status, nextPage].map((a) => ({ name: a.name, ratio: ratio(a.actionMs, a.tripMs) }));
  const worst = Math.max(...perTrip.map((p) => p.ratio));
  return [
    row("interaction, Status change", status, GOALS.interaction.status),
    row("interaction, Next page", nextPage, GOALS.interaction.nextPage),
    {
      figure: "interaction ÷ round trip (reference)",
      measured: `${formatRatio(worst)} worst (${perTrip.map((p) => `${p.name} ${formatRatio(p.ratio)}`).join(", ")})`,
      goal: "report",
      holds: "report",
      details: { ratio: worst, perTrip },
    },
    {
      figure: "interaction floor (reference)",
      measured:
        `${formatMs(floor.swapMs)}: a click that swaps in the next page's rows as plain DOM (no React, no request); ` +
        `${formatRatio(ratio(floor.swapMs, floor.tripMs))} of a round trip (${formatMs(floor.tripMs)})`,
      goal: "report",
      holds: "report",
      details: { ...floor, ratio: ratio(floor.swapMs, floor.tripMs) },
    },
  ];
}

/**
 * The least score each category must reach: a fixed score, or the secured floor's median
 * performance less the points allowed (null when the floor could not be scored).
 */
export function lighthouseTargets(
  preset: Preset,
  securedFloor: LighthouseSummary,
): Record<Category, number | null> {
  const goals: Record<Category, number | UnderFloor> = GOALS.lighthouse[preset];
  const target = (goal: number | UnderFloor) => {
    if (typeof goal === "number") return goal;
    const floor = securedFloor.scores.performance;
    return floor === null ? null : floor - goal.pointsUnderSecuredFloor;
  };
  return {
    performance: target(goals.performance),
    accessibility: target(goals.accessibility),
    "best-practices": target(goals["best-practices"]),
  };
}

/**
 * A Lighthouse preset's scores against its goals (every category at least its target), with
 * the secured floor measured in turns with the page in the same run.
 */
export function lighthouseFigure(summary: LighthouseSummary, securedFloor: LighthouseSummary): Figure {
  const goals: Record<Category, number | UnderFloor> = GOALS.lighthouse[summary.preset];
  const targets = lighthouseTargets(summary.preset, securedFloor);
  const entries = Object.entries(targets) as Array<[Category, number | null]>;
  // On mobile, the main thread too: the page's Total Blocking Time against the secured floor's.
  const blocking =
    summary.preset === "mobile"
      ? ratio(summary.totalBlockingTimeMs ?? Number.NaN, securedFloor.totalBlockingTimeMs ?? Number.NaN)
      : null;
  const holds =
    entries.every(([c, target]) => {
      const score = summary.scores[c];
      return score !== null && target !== null && judge(score, { atLeast: target }) === "yes";
    }) &&
    (blocking === null || judge(blocking, GOALS.mobileBlockingVsFloor) === "yes");
  const scores = entries
    .map(([c]) => `${c} ${summary.scores[c] ?? "?"}${c === "performance" ? runsText(summary) : ""}`)
    .join(", ");
  const goalOf = (c: Category, target: number | null) => {
    const goal = goals[c];
    if (typeof goal !== "number")
      return `${SHORT[c]} ≥ secured floor − ${goal.pointsUnderSecuredFloor} (${target ?? "floor not scored"})`;
    return `${SHORT[c]} ${goal === 100 ? "100" : goalText({ atLeast: goal })}`;
  };
  const goal =
    entries.map(([c, target]) => goalOf(c, target)).join(", ") +
    (blocking === null ? "" : `, TBT ${goalText(GOALS.mobileBlockingVsFloor)} × the secured floor's`);
  const tbt =
    (summary.totalBlockingTimeMs === null ? "?" : formatMs(summary.totalBlockingTimeMs)) +
    (blocking === null ? "" : ` (${formatRatio(blocking)} × the secured floor's)`);
  const top = summary.longTasks[0];
  const traced = summary.traceTasks?.[0];
  const inside = traced?.parts
    .slice(0, 3)
    .map((p) => `${p.name}${p.url ? ` ${shortUrl(p.url)}` : ""} ${formatMs(p.ms)}`)
    .join(", ");
  return {
    figure: `Lighthouse, ${summary.preset}`,
    measured:
      `${scores}; Total Blocking Time ${tbt}` +
      (top ? `; longest task ${formatMs(top.durationMs)} (${shortUrl(top.url)})` : "") +
      (traced ? `; longest in the trace ${formatMs(traced.ms)}${inside ? `: ${inside}` : ""}` : "") +
      (summary.missed.length ? `; missed: ${summary.missed.join("; ")}` : ""),
    goal,
    holds: holds ? "yes" : "no",
    details: { ...summary, targets, totalBlockingTimeVsSecuredFloor: blocking },
  };
}

/**
 * The floors Lighthouse measures the console's page against: the bare Next page (a heading, a
 * button, 20 rows), and the same page sent with the console's security headers (what those cost
 * a fresh tab: Cross-Origin-Opener-Policy makes Chrome load the page in a new browsing context
 * group, in a new process). The secured one sets the mobile performance goal.
 */
export const LIGHTHOUSE_FLOORS = {
  bare: "a bare Next page",
  secured: "the bare page with the console's security headers",
} as const;
export type LighthouseFloor = keyof typeof LIGHTHOUSE_FLOORS;

/** The row of a floor: `Lighthouse, mobile: a bare Next page (reference)`. */
export function lighthouseFloorName(preset: LighthouseSummary["preset"], floor: LighthouseFloor): string {
  return `Lighthouse, ${preset}: ${LIGHTHOUSE_FLOORS[floor]} (reference)`;
}

/**
 * For reference, a floor for a page (LIGHTHOUSE_FLOORS), measured in turns with the console's page
 * in the same run, and the console's Total Blocking Time as a multiple of the floor's.
 */
export function lighthouseFloorFigure(
  which: LighthouseFloor,
  floor: LighthouseSummary,
  page: LighthouseSummary,
): Figure {
  const tbt = (s: LighthouseSummary) => s.totalBlockingTimeMs ?? Number.NaN;
  // A fast desktop run of the floor blocks for 0 ms: then there is no multiple to give.
  const totalBlockingTimeRatio = tbt(floor) === 0 ? null : ratio(tbt(page), tbt(floor));
  const multiple =
    totalBlockingTimeRatio === null
      ? `no multiple (the console's page ${formatMs(tbt(page))})`
      : `the console's page ÷ this: ${formatRatio(totalBlockingTimeRatio)} (Total Blocking Time)`;
  return {
    figure: lighthouseFloorName(floor.preset, which),
    measured:
      `performance ${floor.scores.performance ?? "?"}${runsText(floor)}; Total Blocking Time ` +
      `${formatMs(tbt(floor))}; ${multiple}, performance ${page.scores.performance ?? "?"} against ${floor.scores.performance ?? "?"}`,
    goal: "report",
    holds: "report",
    details: { ...floor, totalBlockingTimeRatio },
  };
}

/** ` (runs 70, 74, 81)` when there were several runs, the median one being shown. */
function runsText(summary: LighthouseSummary): string {
  if (summary.runs.length < 2) return "";
  return ` (median of runs ${summary.runs.map((run) => run.performance ?? "?").join(", ")})`;
}

const SHORT: Record<Category, string> = {
  performance: "perf",
  accessibility: "a11y",
  "best-practices": "bp",
};

function shortUrl(url: string): string {
  return url.split("/").pop() || url;
}

/** The webhook page's scripts, split at hydration (browser.ts, measurePageWeight). */
export interface PageWeight {
  firstLoad: ScriptWeight[];
  afterFirstLoad: ScriptWeight[];
  hydratedAtMs: number;
  documentGzip: number;
}

/** First-load JavaScript against its absolute goal, and for reference what loads after it. */
export function pageWeightFigures(weight: PageWeight): Figure[] {
  const { firstLoad, afterFirstLoad: later } = weight;
  const sum = (list: ScriptWeight[], key: "raw" | "gzip" | "brotli") => list.reduce((n, s) => n + s[key], 0);
  const gzip = sum(firstLoad, "gzip");
  const bySize = (list: ScriptWeight[]) => [...list].sort((a, b) => b.gzip - a.gzip);
  const named = (list: ScriptWeight[]) =>
    list.map((s) => `${shortUrl(s.url)} ${formatKb(s.gzip)}`).join(", ");
  return [
    {
      figure: "page weight, first load",
      measured:
        `${formatKb(gzip)} gzip JS (${formatKb(sum(firstLoad, "brotli"))} brotli, ${formatKb(sum(firstLoad, "raw"))} raw) ` +
        `in ${firstLoad.length} scripts; largest: ${named(bySize(firstLoad).slice(0, 3))}`,
      goal: `${goalText({ atMost: GOALS.firstLoadGzip.atMost / 1000 }, " kB")} gzip`,
      holds: judge(gzip, GOALS.firstLoadGzip),
      details: { gzip, brotli: sum(firstLoad, "brotli"), raw: sum(firstLoad, "raw"), ...weight },
    },
    {
      figure: "page weight, after first load (reference)",
      measured:
        `${formatKb(sum(later, "gzip"))} gzip JS in ${later.length} scripts, asked for after hydration ` +
        `(idle, intent, interaction)${later.length ? `: ${named(bySize(later))}` : ""}`,
      goal: "report",
      holds: "report",
      details: { gzip: sum(later, "gzip"), scripts: later },
    },
  ];
}

/**
 * History questions answered from the console's copy: finding a delivery (through the console ÷
 * the bench's own walk of the same pages, upstream 25 ms away, and for reference over loopback),
 * a first and a second question on a whole history ÷ the bench's own reading of it, the upstream
 * calls of identical and next questions, and the console's memory while a question makes a copy
 * and during exports from it.
 */
export function historyFigures(m: HistoryMeasures, delayMs: number): Figure[] {
  const { shared, memory } = m;
  const exports = [...memory.exports].sort((a, b) => a.rows - b.rows);
  const small = exports[0];
  const large = exports[exports.length - 1];
  if (!small || !large || small === large) throw new Error("need exports of two sizes");
  const growth = (bytes: number) => `+${formatMiB(Math.max(0, bytes), 1)}`;
  return [
    findFigure(`history find, upstream ${delayMs} ms away`, m.far, GOALS.historyFind),
    findFigure("history find, loopback (reference)", m.loopback, null),
    firstQuestionFigure(m.firstQuestion, delayMs),
    ratioFigure(
      "history, two identical questions at once",
      ratio(shared.twoCalls, shared.oneCalls),
      GOALS.sharedQuestions,
      `${formatCount(shared.twoCalls)} upstream calls for two people asking ${shared.question} ` +
        `of ${formatCount(shared.logs)} logs at once on one console, no copy yet ÷ ${formatCount(shared.oneCalls)} for one`,
      { ...shared },
    ),
    {
      figure: "history, the next question: hub calls",
      measured:
        `${formatCount(shared.nextQuestionCalls)} upstream call${shared.nextQuestionCalls === 1 ? "" : "s"} ` +
        `for ${shared.nextQuestion} on the copy of ${formatCount(shared.logs)} logs a question had made ` +
        `(that question: ${formatCount(shared.oneCalls)})`,
      goal: `${goalText(GOALS.nextQuestionCalls)} call`,
      holds: judge(shared.nextQuestionCalls, GOALS.nextQuestionCalls),
      details: { calls: shared.nextQuestionCalls, firstQuestionCalls: shared.oneCalls },
    },
    {
      figure: "history memory, making a copy (reference)",
      measured:
        `RSS ${growth(memory.copy.growthBytes)} while a question copied ${formatCount(memory.copy.logs)} logs ` +
        `(from ${formatMiB(memory.copy.beforeBytes)}; a fresh console)`,
      goal: "report",
      holds: "report",
      details: { ...memory.copy },
    },
    ratioFigure(
      "history memory, CSV export from a copy ÷ making it, per log",
      ratio(perLog(large.growthBytes, large.rows), perLog(memory.copy.growthBytes, memory.copy.logs)),
      GOALS.exportMemory,
      `RSS growth per log: ${formatCount(large.rows)}-row export ÷ the question that copied ${formatCount(memory.copy.logs)} logs; ` +
        exports.map((e) => `${formatCount(e.rows)} rows ${growth(e.growthBytes)}`).join(", ") +
        ` (${formatMiB(large.bytes, 1)} of CSV at most; another fresh console on the same store, smallest first). ` +
        "A file held in memory would add its size",
      { exports },
    ),
  ];
}

/** A first question on a whole history and the same again, each ÷ the bench's own reading of it. */
function firstQuestionFigure(m: FirstQuestionMeasure, delayMs: number): Figure {
  const floor = median(m.floorMs);
  const first = median(m.firstMs);
  const second = median(m.secondMs);
  const firstRatio = ratio(first, floor);
  const secondRatio = ratio(second, floor);
  const holds =
    judge(firstRatio, GOALS.firstQuestion) === "yes" && judge(secondRatio, GOALS.secondQuestion) === "yes";
  return {
    figure: `history, a question on an unwatched webhook of ${formatCount(m.logs)} logs, upstream ${delayMs} ms away`,
    measured:
      `first time ${formatRatio(firstRatio)} (${m.question}, no copy yet: ${formatMs(first)} through the console ÷ ` +
      `${formatMs(floor)} for the bench reading the same ${formatCount(m.pages)} pages ${m.concurrency} at a time, ` +
      `the floor the in-memory scan reached; ${formatCount(median(m.firstCalls))} upstream calls; ` +
      `console CPU ${formatMs(median(m.firstCpuMs) / m.pages)} a page); ` +
      `second time ${formatRatio(secondRatio)} (${formatMs(second)}, ${formatCount(median(m.secondCalls))} upstream ` +
      `call${median(m.secondCalls) === 1 ? "" : "s"}); medians of ${m.firstMs.length}`,
    goal: `first ${goalText(GOALS.firstQuestion)}; second ${goalText(GOALS.secondQuestion)}`,
    holds: holds ? "yes" : "no",
    details: {
      ratio: firstRatio,
      secondRatio,
      firstP50Ms: first,
      secondP50Ms: second,
      floorP50Ms: floor,
      ...m,
    },
  };
}

/** The least growth the export ratio divides by: a smaller one is noise, and would make any ratio. */
const MIN_GROWTH_BYTES = 2 * 1024 * 1024;

/** RSS growth per log read, with growth below MIN_GROWTH_BYTES counted as that (noise). */
function perLog(growthBytes: number, logs: number): number {
  return Math.max(growthBytes, MIN_GROWTH_BYTES) / logs;
}

function findFigure(figure: string, m: FindMeasure, goal: Goal | null): Figure {
  const find = median(m.findMs);
  const walk = median(m.walkMs);
  const calls = m.findCalls.length ? `; ${formatCount(median(m.findCalls))} upstream calls` : "";
  const cpuPerPage = median(m.findCpuMs) / m.pages;
  return ratioFigure(
    figure,
    ratio(find, walk),
    goal,
    `find ${formatCount(m.depth)} deep ${formatMs(find)} through the console ÷ ${formatMs(walk)} ` +
      `for the bench's walk of ${formatCount(m.pages)} pages one after another (${formatMs(walk / m.pages)} a page)` +
      `${calls}; console CPU ${formatMs(cpuPerPage)} a page; medians of ${m.findMs.length}`,
    { ...m, findP50Ms: find, walkP50Ms: walk, consoleCpuMsPerPage: cpuPerPage },
  );
}

/** Where things are on the page, in CSS pixels from its top (browser.ts, measureLayout). */
export interface LayoutMeasure {
  /** The busy demo webhook's first log row at 1400 × 900, and its first card on a phone (390 × 844). */
  firstRowDesktop: number;
  firstRowPhone: number;
  /** The Overview's height at 1400 × 900, with every demo webhook watched and read. */
  overviewDesktop: number;
  /** The Overview's first watched webhook on a phone (390 × 844). */
  overviewFirstRowPhone: number;
  /** Open failure issues the Overview listed when measured. */
  issues: number;
}

/** The answer-first layout against its goals: how far down the rows start, how tall the Overview is. */
export function layoutFigures(m: LayoutMeasure): Figure[] {
  const row = (figure: string, px: number, goal: Goal, note: string): Figure => ({
    figure,
    measured: `${formatCount(Math.round(px))} px${note}`,
    goal: `${goalText(goal, " px")}`,
    holds: judge(px, goal),
    details: { px, ...m },
  });
  const { layout } = GOALS;
  return [
    row("first log row from the top, Busy shop, 1400×900", m.firstRowDesktop, layout.firstRowDesktop, ""),
    row(
      "first log card from the top, Busy shop, 390×844",
      m.firstRowPhone,
      layout.firstRowPhone,
      " (two screens: 1,688)",
    ),
    row(
      "Overview height with the demo, 1400×900",
      m.overviewDesktop,
      layout.overviewDesktop,
      ` (${formatCount(m.issues)} failure issues)`,
    ),
    row(
      "Overview, first watched webhook on a phone (390×844)",
      m.overviewFirstRowPhone,
      layout.overviewFirstRowPhone,
      " (the fold: 844)",
    ),
  ];
}
