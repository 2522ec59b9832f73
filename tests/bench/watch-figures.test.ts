import { describe, expect, it } from "vitest";
import { GOALS } from "./figures";
import { callsOn } from "./watching";
import {
  backfillFigure,
  instancesFigures,
  newLogsFigure,
  overviewFigure,
  steadyFigure,
  storeHealthFigure,
  watcherMemoryFigure,
  type OverviewSide,
} from "./watch-figures";

const side = (webhooks: number, logs: number, ttfbMs: number): OverviewSide => ({
  webhooks,
  logs,
  ttfbMs: [ttfbMs, ttfbMs + 1, ttfbMs - 1],
  totalMs: [ttfbMs + 5, ttfbMs + 6, ttfbMs + 4],
  apiMs: [3, 3, 3],
});

describe("overviewFigure", () => {
  it("divides the medians of the time to first byte, large ÷ small, and holds at 2 with no upstream call", () => {
    const figure = overviewFigure({
      small: side(10, 10_000, 50),
      large: side(200, 1_000_000, 100),
      upstreamCalls: 0,
      fillSeconds: 100,
    });
    expect(figure).toMatchObject({
      figure: "watch overview, 200 watches and 1,000,000 logs ÷ 10 watches and 10,000 logs",
      goal: "≤ 2; 0 upstream calls",
      holds: "yes",
    });
    expect(figure.details.ratio).toBe(2);
    expect(figure.measured).toContain("10,000 logs/s");
  });

  it("misses past 2, or with a single upstream call however fast", () => {
    const slow = { small: side(10, 10_000, 50), large: side(200, 1_000_000, 101), fillSeconds: 1 };
    expect(overviewFigure({ ...slow, upstreamCalls: 0 }).holds).toBe("no");
    expect(overviewFigure({ ...slow, large: side(200, 1_000_000, 60), upstreamCalls: 1 }).holds).toBe("no");
  });
});

describe("storeHealthFigure", () => {
  it("divides the medians of the whole answers, store ÷ hub, and holds at 0.1 with no upstream call", () => {
    const figure = storeHealthFigure({
      logs: 20_000,
      storeMs: [30, 10, 20],
      hubMs: [150, 200, 400],
      storeCalls: 0,
    });
    expect(figure).toMatchObject({
      figure: "delivery health from the store ÷ reading the hub",
      goal: "≤ 0.1; 0 upstream calls",
      holds: "yes",
    });
    expect(figure.details.ratio).toBe(0.1);
    expect(figure.measured).toMatch(
      /^0\.10 \(a watched webhook with 20,000 logs: whole answer p50 20\.0 ms from the store ÷ 200 ms/,
    );
    expect(storeHealthFigure({ logs: 20_000, storeMs: [21], hubMs: [200], storeCalls: 0 }).holds).toBe("no");
    expect(storeHealthFigure({ logs: 20_000, storeMs: [10], hubMs: [200], storeCalls: 1 }).holds).toBe("no");
  });
});

describe("the watcher's calls", () => {
  it("counts the calls on the webhooks asked for, by what was read, between two readings", () => {
    const before = { "/v1/organization/webhook/a": 1, "/v1/organization/webhook/a/webhook-log": 2 };
    const after = {
      "/v1/organization/webhook/a": 4,
      "/v1/organization/webhook/a/webhook-log": 9,
      "/v1/organization/webhook/b": 5,
      "/v1/organization/webhook/c/webhook-log": 1,
    };
    expect(callsOn(["a", "c"], before, after)).toEqual({ webhook: 3, logs: 8 });
  });

  it("steady state: calls per webhook per interval, at most 2, with how often each was polled", () => {
    const figure = steadyFigure({
      webhooks: 200,
      intervalSeconds: 60,
      windowSeconds: 120,
      calls: { webhook: 400, logs: 400 },
    });
    expect(figure.details.ratio).toBe(2);
    expect(figure.holds).toBe("yes");
    expect(figure.details.pollEverySeconds).toBe(60);
    expect(
      steadyFigure({
        webhooks: 200,
        intervalSeconds: 60,
        windowSeconds: 120,
        calls: { webhook: 400, logs: 401 },
      }).holds,
    ).toBe("no");
  });

  it("new logs: pages beyond one per poll, per 50 new logs", () => {
    // 1,000 new logs in 21 pages over one poll: 20 pages of new logs, and the one that meets the stored head.
    const one = newLogsFigure({ webhooks: 1, newLogs: 1000, calls: { webhook: 1, logs: 21 } });
    expect(one.details.ratio).toBe(1);
    expect(one.holds).toBe("yes");
    const reread = newLogsFigure({ webhooks: 1, newLogs: 1000, calls: { webhook: 2, logs: 25 } });
    expect(reread.details.ratio).toBeCloseTo(1.15);
    expect(reread.holds).toBe("no");
  });

  it("backfill: its time ÷ pages × delay ÷ concurrency", () => {
    const figure = backfillFigure({
      logs: 100_000,
      delayMs: 25,
      concurrency: 4,
      seconds: 18.75,
      calls: { webhook: 50, logs: 2000 },
    });
    expect(figure.details).toMatchObject({ pages: 2000, floorMs: 12_500, ratio: 1.5 });
    expect(figure.holds).toBe("yes");
    expect(backfillFigure({ ...figure.details, logs: 100_001 } as never).details.pages).toBe(2001);
  });
});

describe("instancesFigures", () => {
  const input = {
    webhooks: 22,
    windowSeconds: 20,
    one: { webhook: 44, logs: 44 },
    two: { webhook: 48, logs: 48 },
    leaseSeconds: 10,
    intervalSeconds: 10,
    heldAtKill: 2,
    takeOverMs: 20_000,
    mismatched: 0,
    storedLogs: 2000,
  };

  it("two instances' calls ÷ one's, and a take-over within two lease periods with every id stored", () => {
    const [calls, takeOver] = instancesFigures(input);
    expect(calls?.details.ratio).toBeCloseTo(96 / 88);
    expect(calls?.holds).toBe("yes");
    expect(takeOver?.details.leases).toBe(2);
    expect(takeOver?.holds).toBe("yes");
  });

  it("misses when calls grow past 1.1, the take-over is late, an id is missing, or no lease was held to take", () => {
    expect(instancesFigures({ ...input, two: { webhook: 49, logs: 48 } })[0]?.holds).toBe("no");
    expect(instancesFigures({ ...input, takeOverMs: 20_001 })[1]?.holds).toBe("no");
    expect(instancesFigures({ ...input, mismatched: 1 })[1]?.holds).toBe("no");
    expect(instancesFigures({ ...input, heldAtKill: 0 })[1]?.holds).toBe("no");
    const never = instancesFigures({ ...input, takeOverMs: Number.NaN })[1];
    expect(never?.holds).toBe("no");
    expect(never?.measured).toMatch(/^not taken over/);
  });
});

it("reports the watcher's memory unjudged, with the settings that bound it", () => {
  const figure = watcherMemoryFigure({
    webhooks: 202,
    peakRssBytes: 180 * 1024 * 1024,
    rssBytes: 170 * 1024 * 1024,
    settings: { concurrency: 4, backfillCount: 10_000, bodyCapBytes: 4096 },
  });
  expect(figure).toMatchObject({ holds: "report", goal: "report" });
  expect(figure.measured).toMatch(/^peak RSS 180 MiB, now 170 MiB/);
  expect(figure.measured).toContain("WATCH_CONCURRENCY 4");
  expect(GOALS.steadyCalls.atMost).toBe(2);
});
