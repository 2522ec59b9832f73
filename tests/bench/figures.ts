/**
 * The rows of the bench's table that compare sides, built from what was measured: the goals
 * live here, with the arithmetic that judges them, so both are unit-tested (figures.test.ts).
 * Rows that used to be goals and asked for less than the framework itself costs are kept as
 * "report" rows, so "goals that do not hold" lists only real misses.
 */
import type { FindMeasure, HistoryMeasures } from "./history";
import type { Category, LighthouseSummary, Preset } from "./lighthouse";
import {
  formatCount,
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

export const GOALS = {
  /** Console ÷ the bare Next route handler, measured in the same rotation. */
  throughputVsFramework: { atLeast: 0.8 },
  latencyVsFramework: { atMost: 1.25 },
  /** Console ÷ the upstream called directly, with the upstream 25 ms away, one at a time. */
  latencyFarUpstream: { atMost: 1.25 },
  /** Upstream calls of ten viewers ÷ one viewer's, Auto-refresh on. */
  viewers: { atMost: 1.2 },
  /** A Status change ÷ (the browser's floor + one API round trip). */
  statusChange: { atMost: 1.5 },
  /** A prefetched Next page ÷ the browser's floor. */
  nextPage: { atMost: 2 },
  /** Find a delivery 5,000 deep through the console ÷ the bench's own page walk, upstream 25 ms away. */
  historyFind: { atMost: 0.4 },
  /** Upstream calls of two identical history scans at once ÷ one scan's. */
  sharedScans: { atMost: 1.1 },
  /** Upstream calls of a second question on a window read within HISTORY_CACHE_SECONDS. */
  nextQuestionCalls: { atMost: 1 },
  /** RSS growth per log of the largest CSV export ÷ per log of a scan: the file itself must not be held. */
  exportMemory: { atMost: 1.5 },
  lighthouse: {
    mobile: { performance: 95, accessibility: 100, "best-practices": 100 },
    desktop: { performance: 100, accessibility: 100, "best-practices": 100 },
  } satisfies Record<Preset, Record<Category, number>>,
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
  const oldThroughput = ratio(c.rps, d.rps);
  const oldLatency = ratio(c.p50Ms, d.p50Ms);
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
        `throughput ${formatRatio(oldThroughput)} (${rps(c, d)}; once a goal of ≥ 0.6), ` +
        `latency ${formatRatio(oldLatency)} (${p50(c, d)}; once ≤ 1.5): less than the framework's floor allows`,
      goal: "report",
      holds: "report",
      details: { throughputRatio: oldThroughput, latencyRatio: oldLatency, console: c, direct: d },
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
 * Interaction against the browser's own floor (a plain DOM swap of the same rows): a Status
 * change within 1.5 × (floor + round trip), a prefetched Next page within 2 × the floor; for
 * reference, each action ÷ one round trip (once a goal of ≤ 1.3) and the floor itself.
 */
export function interactionFigures(
  actions: { status: ActionMeasure; nextPage: ActionMeasure },
  floor: { swapMs: number; tripMs: number },
  rounds: number,
): Figure[] {
  const { status, nextPage } = actions;
  const statusBudget = floor.swapMs + status.tripMs;
  const perTrip = [status, nextPage].map((a) => ({ name: a.name, ratio: ratio(a.actionMs, a.tripMs) }));
  const worst = Math.max(...perTrip.map((p) => p.ratio));
  return [
    ratioFigure(
      "interaction, Status change",
      ratio(status.actionMs, statusBudget),
      GOALS.statusChange,
      `${formatMs(status.actionMs)} ÷ (floor ${formatMs(floor.swapMs)} + round trip ${formatMs(status.tripMs)}); medians of ${rounds}`,
      { ...status, floorMs: floor.swapMs },
    ),
    ratioFigure(
      "interaction, Next page",
      ratio(nextPage.actionMs, floor.swapMs),
      GOALS.nextPage,
      `${formatMs(nextPage.actionMs)}${nextPage.madeRequest ? ", with a request" : ", rows prefetched"} ÷ floor ${formatMs(floor.swapMs)}`,
      { ...nextPage, floorMs: floor.swapMs },
    ),
    {
      figure: "interaction ÷ round trip (reference)",
      measured: `${formatRatio(worst)} worst (${perTrip.map((p) => `${p.name} ${formatRatio(p.ratio)}`).join(", ")}; once a goal of ≤ 1.3)`,
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

/** A Lighthouse preset's scores against its goals (every category at least its goal). */
export function lighthouseFigure(summary: LighthouseSummary): Figure {
  const goals = GOALS.lighthouse[summary.preset];
  const entries = Object.entries(goals) as Array<[Category, number]>;
  const holds = entries.every(([c, goal]) => {
    const score = summary.scores[c];
    return score !== null && judge(score, { atLeast: goal }) === "yes";
  });
  const scores = entries
    .map(([c]) => `${c} ${summary.scores[c] ?? "?"}${c === "performance" ? runsText(summary) : ""}`)
    .join(", ");
  const goal = entries
    .map(([c, g]) => `${SHORT[c]} ${g === 100 ? "100" : goalText({ atLeast: g })}`)
    .join(", ");
  const tbt = summary.totalBlockingTimeMs === null ? "?" : formatMs(summary.totalBlockingTimeMs);
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
    details: { ...summary },
  };
}

/**
 * The floors Lighthouse measures the console's page against: the bare Next page (a heading, a
 * button, 20 rows), and the same page sent with the console's security headers (what those cost
 * a fresh tab: Cross-Origin-Opener-Policy makes Chrome load the page in a new browsing context
 * group, in a new process).
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
  const totalBlockingTimeRatio = ratio(tbt(page), tbt(floor));
  return {
    figure: lighthouseFloorName(floor.preset, which),
    measured:
      `performance ${floor.scores.performance ?? "?"}${runsText(floor)}; Total Blocking Time ` +
      `${formatMs(tbt(floor))}; the console's page ÷ this: ${formatRatio(totalBlockingTimeRatio)} ` +
      `(Total Blocking Time), performance ${page.scores.performance ?? "?"} against ${floor.scores.performance ?? "?"}`,
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

/**
 * The history scan: finding a delivery (through the console ÷ the bench's own walk of the same
 * pages, upstream 25 ms away, and for reference over loopback), the upstream calls of identical
 * and follow-up questions, and the console's memory during a scan and during exports.
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
    ratioFigure(
      "history, two identical scans at once",
      ratio(shared.twoCalls, shared.oneCalls),
      GOALS.sharedScans,
      `${formatCount(shared.twoCalls)} upstream calls for two people asking ${shared.question} ` +
        `of ${formatCount(shared.logs)} logs at once on one console ÷ ${formatCount(shared.oneCalls)} for one`,
      { ...shared },
    ),
    {
      figure: "history, next question within 30 s",
      measured:
        `${formatCount(shared.nextQuestionCalls)} upstream call${shared.nextQuestionCalls === 1 ? "" : "s"} ` +
        `for ${shared.nextQuestion} on the ${formatCount(shared.logs)} logs a scan had just read ` +
        `(that scan: ${formatCount(shared.oneCalls)})`,
      goal: `${goalText(GOALS.nextQuestionCalls)} call`,
      holds: judge(shared.nextQuestionCalls, GOALS.nextQuestionCalls),
      details: { calls: shared.nextQuestionCalls, firstScanCalls: shared.oneCalls },
    },
    {
      figure: "history memory, scan (reference)",
      measured:
        `RSS ${growth(memory.scan.growthBytes)} during a scan of ${formatCount(memory.scan.logs)} logs, ` +
        "which keeps what it read for the next question " +
        `(from ${formatMiB(memory.scan.beforeBytes)}; a fresh console)`,
      goal: "report",
      holds: "report",
      details: { ...memory.scan },
    },
    ratioFigure(
      "history memory, CSV export ÷ scan, per log",
      ratio(perLog(large.growthBytes, large.rows), perLog(memory.scan.growthBytes, memory.scan.logs)),
      GOALS.exportMemory,
      `RSS growth per log read: ${formatCount(large.rows)}-row export ÷ the ${formatCount(memory.scan.logs)}-log scan; ` +
        exports.map((e) => `${formatCount(e.rows)} rows ${growth(e.growthBytes)}`).join(", ") +
        ` (${formatMiB(large.bytes, 1)} of CSV at most; a fresh console, smallest first). ` +
        "Both keep what they read (the window, up to the cap); a file held in memory would add its size",
      { exports },
    ),
  ];
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
