import { describe, expect, it } from "vitest";
import { metricsFigure, type ScrapeSide } from "./metrics-figures";

const side = (webhooks: number, logs: number, ms: number, series: number): ScrapeSide => ({
  webhooks,
  logs,
  totalMs: [ms, ms + 1, ms - 1],
  series,
});

describe("metricsFigure", () => {
  it("divides the medians of the whole scrapes, large ÷ small, and holds at 2 with no hub call", () => {
    const figure = metricsFigure({
      small: side(10, 10_000, 20, 150),
      large: side(200, 1_000_000, 40, 3000),
      upstreamCalls: 0,
    });
    expect(figure).toMatchObject({
      figure: "metrics scrape, 200 watches and 1,000,000 logs ÷ 10 watches and 10,000 logs",
      goal: "≤ 2; 0 hub calls",
      holds: "yes",
    });
    expect(figure.details.ratio).toBe(2);
    expect(figure.measured).toContain("3,000 ÷ 150 series");
  });

  it("misses past 2, or with a single hub call however fast", () => {
    const small = side(10, 10_000, 20, 150);
    expect(metricsFigure({ small, large: side(200, 1_000_000, 41, 3000), upstreamCalls: 0 }).holds).toBe(
      "no",
    );
    expect(metricsFigure({ small, large: side(200, 1_000_000, 21, 3000), upstreamCalls: 1 }).holds).toBe(
      "no",
    );
  });
});
