import { describe, expect, it } from "vitest";
import {
  farUpstreamFigures,
  GOALS,
  historyFigures,
  interactionFigures,
  layoutFigures,
  lighthouseFigure,
  lighthouseFloorFigure,
  lighthouseTargets,
  pageWeightFigures,
  proxyFigures,
  viewersFigure,
  type SideMeasure,
} from "./figures";
import type { HistoryMeasures } from "./history";
import {
  isWorthRunningAgain,
  summarizeLhr,
  summarizeRuns,
  type LighthouseRun,
  type LighthouseSummary,
  type Lhr,
} from "./lighthouse";
import { failingGoals, type Figure } from "./report";
import { callsFor } from "./viewers";

const side = (rps: number, p50Ms: number): SideMeasure => ({ rps, p50Ms, cpuMsPerRequest: 1 });

describe("proxyFigures", () => {
  const rows = (consoleSide: SideMeasure) =>
    proxyFigures(
      { console: consoleSide, bareNext: side(500, 2), direct: side(4000, 0.5), bareNode: side(3000, 0.8) },
      32,
    );

  it("guards the console against the bare Next handler only, at 0.5 × throughput and 1.3 × p50", () => {
    const [throughput, latency, ...references] = rows(side(250, 2.6));
    expect(throughput).toMatchObject({
      figure: "proxy throughput ÷ framework floor",
      goal: "≥ 0.5",
      holds: "yes",
    });
    expect(throughput?.details.ratio).toBe(0.5);
    expect(latency).toMatchObject({
      figure: "proxy latency ÷ framework floor",
      goal: "≤ 1.3",
      holds: "yes",
    });
    expect(latency?.details.ratio).toBe(1.3);
    expect(references.map((f) => f.holds)).toEqual(["report", "report", "report"]);
  });

  it("misses just past either limit", () => {
    const [throughput, latency] = rows(side(249, 2.61));
    expect(throughput?.holds).toBe("no");
    expect(latency?.holds).toBe("no");
  });

  it("reports the console against the sandbox called directly, unjudged", () => {
    const direct = rows(side(400, 2.5)).find((f) => f.figure === "proxy ÷ sandbox direct (reference)");
    expect(direct?.holds).toBe("report");
    expect(direct?.details).toMatchObject({ throughputRatio: 0.1, latencyRatio: 5 });
    expect(direct?.measured).toMatch(/^throughput 0\.10 \(400 ÷ 4,000 req\/s\), latency 5\.00 /);
  });
});

describe("farUpstreamFigures", () => {
  const input = (consoleP50Ms: number) => ({
    delayMs: 25,
    oneAtATime: { consoleP50Ms, directP50Ms: 20, samples: 100 },
    concurrent: { concurrency: 32, console: { rps: 600, p50Ms: 50 }, direct: { rps: 1200, p50Ms: 26 } },
  });

  it("guards one at a time at 1.3 and only reports the concurrent side", () => {
    const [one, many] = farUpstreamFigures(input(26));
    expect(one).toMatchObject({ figure: "upstream 25 ms away, one at a time", holds: "yes", goal: "≤ 1.3" });
    expect(many?.holds).toBe("report");
    expect(many?.details).toMatchObject({ throughputRatio: 0.5 });
    expect(farUpstreamFigures(input(26.1))[0]?.holds).toBe("no");
  });
});

describe("viewersFigure", () => {
  const calls = (viewers: number, total: number) => ({ webhookId: "w", viewers, calls: {}, total });

  it("divides the many viewers' upstream calls by one viewer's, at most 1.2", () => {
    expect(viewersFigure(calls(1, 12), calls(10, 14), 30)).toMatchObject({ holds: "yes", goal: "≤ 1.2" });
    const uncoalesced = viewersFigure(calls(1, 12), calls(10, 120), 30);
    expect(uncoalesced.holds).toBe("no");
    expect(uncoalesced.details.ratio).toBe(10);
  });

  it("refuses to divide by a viewer that made no call (Auto-refresh did not run)", () => {
    expect(() => viewersFigure(calls(1, 0), calls(10, 5), 30)).toThrow(/no upstream call/);
  });
});

describe("callsFor", () => {
  it("counts the calls added since `before` on paths that name the webhook", () => {
    const before = { "/v1/organization/webhook/a/webhook-log": 3, "/v1/organization/webhook/b": 1 };
    const after = {
      "/v1/organization/webhook/a/webhook-log": 5,
      "/v1/organization/webhook/a": 2,
      "/v1/organization/webhook/b": 4,
      "/v1/organization/webhook/ab": 9,
    };
    expect(callsFor("a", before, after)).toEqual({
      "/v1/organization/webhook/a/webhook-log": 2,
      "/v1/organization/webhook/a": 2,
    });
  });
});

describe("historyFigures", () => {
  const MiB = 1024 * 1024;
  const find = (findMs: number[], walkMs: number[], findCalls: number[] = []) => ({
    depth: 5000,
    pages: 100,
    findMs,
    walkMs,
    findCalls,
    findCpuMs: findMs.map(() => 250),
  });
  const firstQuestion = (firstMs: number[], secondMs: number[], floorMs = [2700, 2600, 2800]) => ({
    logs: 20_000,
    question: "status=Failed",
    concurrency: 4,
    pages: 400,
    floorMs,
    firstMs,
    secondMs,
    firstCalls: [400, 400, 401],
    secondCalls: [1, 1, 1],
    firstCpuMs: firstMs.map(() => 1200),
  });
  const measures = (over: Partial<HistoryMeasures> = {}): HistoryMeasures => ({
    far: find([800, 1000, 900], [2500, 2600, 2400], [104, 103, 104]),
    loopback: find([300, 310], [200, 220]),
    firstQuestion: firstQuestion([2900, 2800, 3000], [90, 80, 100]),
    shared: {
      logs: 10_000,
      question: "status=Failed",
      oneCalls: 201,
      twoCalls: 202,
      nextQuestion: "status=Success",
      nextQuestionCalls: 1,
    },
    memory: {
      copy: { logs: 80_000, growthBytes: 32 * MiB, beforeBytes: 150 * MiB },
      exports: [
        { rows: 80_000, bytes: 20 * MiB, growthBytes: 9 * MiB, beforeBytes: 150 * MiB },
        { rows: 5000, bytes: 1.25 * MiB, growthBytes: 10 * MiB, beforeBytes: 140 * MiB },
        { rows: 20_000, bytes: 5 * MiB, growthBytes: 12 * MiB, beforeBytes: 145 * MiB },
      ],
    },
    ...over,
  });
  const byName = (figures: Figure[], start: string) => figures.find((f) => f.figure.startsWith(start));

  it("judges the find 25 ms away by its median against the median walk, at most 0.4", () => {
    const figures = historyFigures(measures(), 25);
    const far = byName(figures, "history find, upstream 25 ms away");
    expect(far).toMatchObject({ goal: "≤ 0.4", holds: "yes" });
    expect(far?.details.ratio).toBe(0.36);
    expect(far?.measured).toContain(
      "100 pages one after another (25.0 ms a page); 104 upstream calls; console CPU 2.50 ms a page",
    );
    expect(byName(figures, "history find, loopback")).toMatchObject({ holds: "report" });
    expect(byName(figures, "history find, loopback")?.details.ratio).toBeCloseTo(305 / 210);
    const slow = historyFigures(measures({ far: find([1100], [2500]) }), 25);
    expect(byName(slow, "history find, upstream")?.holds).toBe("no");
  });

  it("judges a first question against the bench's own reading, at most 1.1, and the second at most 0.1", () => {
    const row = (m: ReturnType<typeof firstQuestion>) =>
      byName(historyFigures(measures({ firstQuestion: m }), 25), "history, a question on an unwatched");
    const holding = row(firstQuestion([2900, 2800, 3000], [90, 80, 100]));
    expect(holding).toMatchObject({
      figure: "history, a question on an unwatched webhook of 20,000 logs, upstream 25 ms away",
      goal: "first ≤ 1.1; second ≤ 0.1",
      holds: "yes",
    });
    // Medians: 2,900 and 90 ms ÷ 2,700 ms.
    expect(holding?.details.ratio).toBeCloseTo(2900 / 2700);
    expect(holding?.details.secondRatio).toBeCloseTo(90 / 2700);
    expect(holding?.measured).toContain(
      "first time 1.07 (status=Failed, no copy yet: 2900 ms through the console ÷ 2700 ms for the bench reading " +
        "the same 400 pages 4 at a time, the floor the in-memory scan reached; 400 upstream calls; console CPU 3.00 ms a page); " +
        "second time 0.03 (90.0 ms, 1 upstream call); medians of 3",
    );
    expect(row(firstQuestion([3000, 3000, 3000], [90, 80, 100]))?.holds).toBe("no");
    expect(row(firstQuestion([2900, 2800, 3000], [280, 280, 280]))?.holds).toBe("no");
  });

  it("divides two identical questions' upstream calls by one question's, at most 1.1", () => {
    const shared = (twoCalls: number) =>
      byName(historyFigures(measures({ shared: { ...measures().shared, twoCalls } }), 25), "history, two");
    expect(shared(221)).toMatchObject({ goal: "≤ 1.1", holds: "yes" });
    expect(shared(222)?.holds).toBe("no");
    expect(shared(402)?.details.ratio).toBe(2);
  });

  it("holds the next question on a copy to one upstream call", () => {
    const next = (nextQuestionCalls: number) =>
      byName(
        historyFigures(measures({ shared: { ...measures().shared, nextQuestionCalls } }), 25),
        "history, the next question",
      );
    expect(next(1)).toMatchObject({
      figure: "history, the next question: hub calls",
      goal: "≤ 1 call",
      holds: "yes",
    });
    expect(next(1)?.measured).toMatch(/^1 upstream call for status=Success on the copy of 10,000 logs/);
    expect(next(201)?.holds).toBe("no");
  });

  it("reports the copy's memory and judges the largest export's growth per log against the copy's", () => {
    const figures = historyFigures(measures(), 25);
    expect(byName(figures, "history memory, making a copy")).toMatchObject({
      figure: "history memory, making a copy (reference)",
      holds: "report",
    });
    expect(byName(figures, "history memory, making a copy")?.measured).toContain(
      "RSS +32.0 MiB while a question copied 80,000 logs",
    );
    const csv = byName(figures, "history memory, CSV export");
    expect(csv).toMatchObject({
      figure: "history memory, CSV export from a copy ÷ making it, per log",
      goal: `≤ ${GOALS.exportMemory.atMost}`,
      holds: "yes",
    });
    // 9 MiB over 80,000 rows ÷ 32 MiB over 80,000 logs.
    expect(csv?.details.ratio).toBe(0.28125);
    expect(csv?.measured).toContain(
      "80,000-row export ÷ the question that copied 80,000 logs; 5,000 rows +10.0 MiB, 20,000 rows +12.0 MiB, 80,000 rows +9.0 MiB (20.0 MiB of CSV",
    );
    const buffered = measures();
    buffered.memory.exports[0]!.growthBytes = 80 * MiB;
    expect(byName(historyFigures(buffered, 25), "history memory, CSV")?.holds).toBe("no");
    const quiet = measures();
    quiet.memory.copy.growthBytes = 0.1 * MiB;
    // A growth under 2 MiB is noise, counted as 2 MiB: 9 MiB ÷ 2 MiB over the same 80,000 logs.
    expect(byName(historyFigures(quiet, 25), "history memory, CSV")?.details.ratio).toBe(4.5);
  });
});

describe("interactionFigures", () => {
  const action = (name: string, actionMs: number, tripMs: number, madeRequest: boolean) => ({
    name,
    actionMs,
    tripMs,
    madeRequest,
  });

  it("guards Status change at 2 and Next page at 1.5 × (floor + the action's own round trip)", () => {
    const [status, next, perTrip, floor] = interactionFigures(
      { status: action("Status filter", 40, 10, true), nextPage: action("Next page", 22.5, 5, false) },
      { swapMs: 10, tripMs: 8 },
      7,
    );
    expect(status).toMatchObject({ figure: "interaction, Status change", goal: "≤ 2", holds: "yes" });
    expect(status?.details.ratio).toBe(2);
    expect(status?.measured).toBe("2.00 (40.0 ms ÷ (floor 10.0 ms + round trip 10.0 ms); medians of 7)");
    expect(next).toMatchObject({ figure: "interaction, Next page", goal: "≤ 1.5", holds: "yes" });
    expect(next?.details.ratio).toBe(1.5);
    expect(next?.measured).toContain("rows prefetched");
    expect(perTrip).toMatchObject({ holds: "report" });
    expect(perTrip?.details.ratio).toBe(4.5);
    expect(floor).toMatchObject({ holds: "report" });
  });

  it("misses when the action takes longer than its budget", () => {
    const [status, next] = interactionFigures(
      { status: action("Status filter", 41, 10, true), nextPage: action("Next page", 23, 5, true) },
      { swapMs: 10, tripMs: 8 },
      7,
    );
    expect(status?.holds).toBe("no");
    expect(next?.holds).toBe("no");
  });
});

describe("layoutFigures", () => {
  const measured = {
    firstRowDesktop: 988,
    firstRowPhone: 1623,
    overviewDesktop: 2248,
    overviewFirstRowPhone: 785,
    issues: 31,
  };

  it("judges each position against its goal in pixels", () => {
    const rows = layoutFigures(measured);
    expect(rows.map((row) => [row.figure, row.goal, row.holds])).toEqual([
      ["first log row from the top, Busy shop, 1400×900", "≤ 1100 px", "yes"],
      ["first log card from the top, Busy shop, 390×844", "≤ 1688 px", "yes"],
      ["Overview height with the demo, 1400×900", "≤ 2500 px", "yes"],
      ["Overview, first watched webhook on a phone (390×844)", "≤ 844 px", "yes"],
    ]);
    expect(rows[2]?.measured).toBe("2,248 px (31 failure issues)");
  });

  it.each([
    ["firstRowDesktop", 1101],
    ["firstRowPhone", 1689],
    ["overviewDesktop", 2501],
    ["overviewFirstRowPhone", 845],
  ] as const)("misses when %s is past its goal (%d px)", (name, px) => {
    const rows = layoutFigures({ ...measured, [name]: px });
    expect(rows.filter((row) => row.holds === "no")).toHaveLength(1);
  });
});

const lhr = (performance: number, longTask = 120): Lhr => ({
  categories: {
    performance: { score: performance, auditRefs: [{ id: "total-blocking-time", weight: 30 }] },
    accessibility: { score: 1, auditRefs: [{ id: "color-contrast", weight: 7 }] },
    "best-practices": {
      score: 0.96,
      auditRefs: [
        { id: "errors-in-console", weight: 1 },
        { id: "unweighted", weight: 0 },
      ],
    },
  },
  audits: {
    "total-blocking-time": { title: "Total Blocking Time", score: 0.7, numericValue: 430 },
    "color-contrast": { title: "Contrast", score: 1 },
    "errors-in-console": { title: "Browser errors were logged to the console", score: 0 },
    unweighted: { title: "Not counted", score: 0 },
    "long-tasks": {
      score: null,
      details: {
        items: [
          { url: "http://x/_next/static/chunks/a.js", startTime: 900, duration: 80 },
          { url: "http://x/_next/static/chunks/b.js", startTime: 700, duration: longTask },
        ],
      },
    },
    "bootup-time": {
      score: 1,
      details: { items: [{ url: "http://x/a.js", total: 300, scripting: 250, scriptParseCompile: 20 }] },
    },
  },
});

describe("summarizeLhr", () => {
  it("keeps rounded scores, TBT, the longest tasks first and the weighted audits that failed", () => {
    const summary = summarizeLhr("mobile", lhr(0.884));
    expect(summary.scores).toEqual({ performance: 88, accessibility: 100, "best-practices": 96 });
    expect(summary.totalBlockingTimeMs).toBe(430);
    expect(summary.longTasks.map((t) => t.durationMs)).toEqual([120, 80]);
    expect(summary.scripts[0]).toEqual({
      url: "http://x/a.js",
      totalMs: 300,
      scriptingMs: 250,
      parseCompileMs: 20,
    });
    expect(summary.missed).toEqual([
      "performance: Total Blocking Time",
      "best-practices: Browser errors were logged to the console",
    ]);
  });
});

/** A run with the timings Lighthouse's median run is chosen by, and its Total Blocking Time. */
const timedRun = (performance: number, fcp: number, tti: number, tbt: number): LighthouseRun => {
  const result = lhr(performance);
  return {
    lhr: {
      ...result,
      audits: {
        ...result.audits,
        "first-contentful-paint": { score: 1, numericValue: fcp },
        interactive: { score: 1, numericValue: tti },
        "total-blocking-time": { title: "Total Blocking Time", score: 0.5, numericValue: tbt },
      },
    },
  };
};

describe("summarizeRuns", () => {
  it("sums up the run nearest the median first paint and time to interactive, with every run's score", () => {
    const runs = [
      timedRun(0.7, 900, 5200, 1400),
      timedRun(0.81, 1000, 4000, 900),
      timedRun(0.9, 800, 3000, 500),
    ];
    const summary = summarizeRuns("mobile", runs);
    // Median FCP 900, median TTI 4000: the second run is nearest (the score's median would be too).
    expect(summary.scores.performance).toBe(81);
    expect(summary.totalBlockingTimeMs).toBe(900);
    expect(summary.runs).toEqual([
      { performance: 70, totalBlockingTimeMs: 1400 },
      { performance: 81, totalBlockingTimeMs: 900 },
      { performance: 90, totalBlockingTimeMs: 500 },
    ]);
    expect(lighthouseFigure(summary, summary).measured).toContain(
      "performance 81 (median of runs 70, 81, 90)",
    );
  });

  it("names the runs only when there were several", () => {
    const summary = summarizeRuns("desktop", [timedRun(0.99, 500, 900, 40)]);
    expect(summary.runs).toHaveLength(1);
    expect(lighthouseFigure(summary, summary).measured).toMatch(/^performance 99, /);
  });
});

describe("lighthouseFloorFigure", () => {
  it("reports the bare page's score and the console's Total Blocking Time as a multiple of its", () => {
    const floor = summarizeRuns("mobile", [timedRun(0.88, 700, 2500, 400), timedRun(0.92, 700, 2400, 350)]);
    const page = summarizeRuns("mobile", [timedRun(0.8, 1000, 3900, 875)]);
    const f = lighthouseFloorFigure("bare", floor, page);
    expect(f).toMatchObject({
      figure: "Lighthouse, mobile: a bare Next page (reference)",
      goal: "report",
      holds: "report",
    });
    expect(f.measured).toContain(`performance ${floor.scores.performance} (median of runs 88, 92)`);
    expect(f.details.totalBlockingTimeRatio).toBeCloseTo(875 / (floor.totalBlockingTimeMs ?? 0));
    expect(f.measured).toContain(`performance 80 against ${floor.scores.performance}`);
  });

  it("names the floor measured: the bare page, or the same page with the console's headers", () => {
    const floor = summarizeRuns("desktop", [timedRun(0.99, 300, 600, 20)]);
    const page = summarizeRuns("desktop", [timedRun(0.97, 300, 900, 80)]);
    expect(lighthouseFloorFigure("secured", floor, page).figure).toBe(
      "Lighthouse, desktop: the bare page with the console's security headers (reference)",
    );
    expect(lighthouseFloorFigure("secured", floor, page).details.totalBlockingTimeRatio).toBeCloseTo(
      80 / (floor.totalBlockingTimeMs ?? 0),
    );
  });
  it("gives no multiple of a floor that blocked for 0 ms (a fast desktop run)", () => {
    const floor = summarizeRuns("desktop", [timedRun(1, 300, 600, 0)]);
    const page = summarizeRuns("desktop", [timedRun(1, 300, 650, 11)]);
    const f = lighthouseFloorFigure("bare", floor, page);
    expect(f.details.totalBlockingTimeRatio).toBeNull();
    expect(f.measured).toContain("Total Blocking Time 0.00 ms; no multiple (the console's page 11.0 ms)");
  });
});

describe("isWorthRunningAgain", () => {
  it("runs again only what Lighthouse itself says to run again", () => {
    const noNavstart = new Error(
      "Lighthouse exited 1: Runtime error encountered: Something went wrong with recording the trace " +
        "over your page load. Please run Lighthouse again. (NO_NAVSTART)",
    );
    expect(isWorthRunningAgain(noNavstart)).toBe(true);
    expect(isWorthRunningAgain(new Error("Lighthouse wrote no report: "))).toBe(false);
    expect(
      isWorthRunningAgain(
        new Error("Lighthouse measured http://x/login, not the page asked for (http://x/w)"),
      ),
    ).toBe(false);
  });
});

describe("lighthouseFigure", () => {
  const summary = (preset: "mobile" | "desktop", scores: LighthouseSummary["scores"]): LighthouseSummary => ({
    ...summarizeLhr(preset, lhr(1)),
    scores,
  });

  const securedFloor = (performance: number | null) =>
    summary("mobile", { performance, accessibility: 100, "best-practices": 100 });

  it("holds on mobile within 5 points of the secured floor, with accessibility and best practices at 100", () => {
    const f = lighthouseFigure(
      summary("mobile", { performance: 81, accessibility: 100, "best-practices": 100 }),
      securedFloor(86),
    );
    expect(f).toMatchObject({
      figure: "Lighthouse, mobile",
      holds: "yes",
      goal: "perf ≥ secured floor − 5 (81), a11y 100, bp 100, TBT ≤ 1.5 × the secured floor's",
    });
    expect(f.measured).toContain("Total Blocking Time 430 ms (1.00 × the secured floor's)");
    expect(f.details.longTasks).toHaveLength(2);
    const under = summary("mobile", { performance: 80, accessibility: 100, "best-practices": 100 });
    expect(lighthouseFigure(under, securedFloor(86)).holds).toBe("no");
  });

  it("misses on mobile when the page blocks the main thread more than 1.5 × the secured floor", () => {
    const page = summary("mobile", { performance: 100, accessibility: 100, "best-practices": 100 });
    const floor = securedFloor(100);
    const blocked = (ms: number) => lighthouseFigure({ ...page, totalBlockingTimeMs: ms }, floor);
    expect(blocked((floor.totalBlockingTimeMs ?? 0) * 1.5).holds).toBe("yes");
    expect(blocked((floor.totalBlockingTimeMs ?? 0) * 1.5 + 1).holds).toBe("no");
    expect(
      blocked((floor.totalBlockingTimeMs ?? 0) * 1.6).details.totalBlockingTimeVsSecuredFloor,
    ).toBeCloseTo(1.6);
  });

  it("cannot hold on mobile when the secured floor was not scored", () => {
    const page = summary("mobile", { performance: 100, accessibility: 100, "best-practices": 100 });
    const f = lighthouseFigure(page, securedFloor(null));
    expect(f.holds).toBe("no");
    expect(f.goal).toContain("(floor not scored)");
  });

  it("holds on desktop at performance 98, whatever the floor", () => {
    const desktop = (performance: number) =>
      lighthouseFigure(
        summary("desktop", { performance, accessibility: 100, "best-practices": 100 }),
        summary("desktop", { performance: 100, accessibility: 100, "best-practices": 100 }),
      );
    expect(desktop(98)).toMatchObject({ holds: "yes", goal: "perf ≥ 98, a11y 100, bp 100" });
    expect(desktop(97).holds).toBe("no");
  });

  it("misses when accessibility or best practices is under 100, or not scored", () => {
    const floor = securedFloor(80);
    for (const preset of ["mobile", "desktop"] as const) {
      expect(
        lighthouseFigure(
          summary(preset, { performance: 100, accessibility: 99, "best-practices": 100 }),
          floor,
        ).holds,
      ).toBe("no");
      expect(
        lighthouseFigure(
          summary(preset, { performance: 100, accessibility: null, "best-practices": 100 }),
          floor,
        ).holds,
      ).toBe("no");
      expect(
        lighthouseFigure(
          summary(preset, { performance: 100, accessibility: 100, "best-practices": 99 }),
          floor,
        ).holds,
      ).toBe("no");
    }
  });

  it("names what the trace's longest task was made of", () => {
    const desktop = summary("desktop", { performance: 100, accessibility: 100, "best-practices": 100 });
    const f = lighthouseFigure(
      {
        ...desktop,
        traceTasks: [
          {
            startMs: 9,
            ms: 90,
            parts: [
              { name: "EvaluateScript", ms: 60, url: "http://x/a.js" },
              { name: "Layout", ms: 20 },
            ],
          },
        ],
      },
      desktop,
    );
    expect(f.measured).toContain("longest in the trace 90.0 ms: EvaluateScript a.js 60.0 ms, Layout 20.0 ms");
  });

  it("sets each category's target: mobile performance from the secured floor, the rest fixed", () => {
    expect(lighthouseTargets("mobile", securedFloor(83))).toEqual({
      performance: 78,
      accessibility: 100,
      "best-practices": 100,
    });
    expect(lighthouseTargets("desktop", securedFloor(83))).toEqual({
      performance: 98,
      accessibility: 100,
      "best-practices": 100,
    });
  });
});

describe("pageWeightFigures", () => {
  const script = (url: string, gzip: number) => ({ url, raw: gzip * 3, gzip, brotli: gzip - 1_000 });
  const weight = (firstLoadGzip: number[]) => ({
    firstLoad: firstLoadGzip.map((gzip, i) => script(`/_next/static/chunks/first-${i}.js`, gzip)),
    afterFirstLoad: [
      script("/_next/static/chunks/chart.js", 9_000),
      script("/_next/static/chunks/send.js", 12_000),
    ],
    hydratedAtMs: 420,
    documentGzip: 8_000,
  });

  it("holds first-load JS to 165 kB gzip, absolute, naming the largest scripts first", () => {
    const [first] = pageWeightFigures(weight([35_000, 100_000, 30_000]));
    expect(first).toMatchObject({ figure: "page weight, first load", goal: "≤ 165 kB gzip", holds: "yes" });
    expect(first?.details.gzip).toBe(165_000);
    expect(first?.measured).toBe(
      "165.0 kB gzip JS (162.0 kB brotli, 495.0 kB raw) in 3 scripts; " +
        "largest: first-1.js 100.0 kB, first-0.js 35.0 kB, first-2.js 30.0 kB",
    );
    expect(pageWeightFigures(weight([35_000, 100_001, 30_000]))[0]?.holds).toBe("no");
  });

  it("reports what loads after first load, unjudged", () => {
    const [, later] = pageWeightFigures(weight([100_000]));
    expect(later).toMatchObject({ figure: "page weight, after first load (reference)", holds: "report" });
    expect(later?.details.gzip).toBe(21_000);
    expect(later?.measured).toContain("21.0 kB gzip JS in 2 scripts");
    expect(later?.measured).toContain("send.js 12.0 kB, chart.js 9.0 kB");
  });
});

describe("failingGoals", () => {
  const row = (figure: string, holds: Figure["holds"]): Figure => ({
    figure,
    measured: "",
    goal: "",
    holds,
    details: {},
  });

  it("lists only goals that do not hold: not reported rows, not parts that could not be measured", () => {
    const figures = [
      row("proxy throughput ÷ framework floor", "no"),
      row("proxy ÷ sandbox direct (reference)", "report"),
      row("page weight", "yes"),
      row("Lighthouse, mobile", "no"),
    ];
    expect(failingGoals(figures, ["Lighthouse, mobile"])).toEqual(["proxy throughput ÷ framework floor"]);
  });
});
