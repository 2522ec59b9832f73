import { describe, expect, it } from "vitest";
import { metricsFigures, type ScrapeSide } from "./metrics-figures";

const side = (webhooks: number, logs: number, ms: number, series: number): ScrapeSide => ({
  webhooks,
  logs,
  totalMs: [ms, ms + 1, ms - 1],
  series,
});

describe("metricsFigures", () => {
  const small = side(10, 10_000, 20, 150);
  const fewLogs = side(200, 10_000, 38, 3000);

  it("divides the medians of the whole scrapes, large ÷ small (≤ 2 with no hub call), and large ÷ as many watches with few logs", () => {
    const [judged, reference] = metricsFigures({
      small,
      large: side(200, 1_000_000, 40, 3000),
      fewLogs,
      upstreamCalls: 0,
    });
    expect(judged).toMatchObject({
      figure: "metrics scrape, 200 watches and 1,000,000 logs ÷ 10 watches and 10,000 logs",
      goal: "≤ 2; 0 hub calls",
      holds: "yes",
    });
    expect(judged!.details.ratio).toBe(2);
    expect(judged!.measured).toContain("3,000 ÷ 150 series");
    expect(reference).toMatchObject({
      figure: "metrics scrape, 200 watches and 1,000,000 logs ÷ 200 watches and 10,000 logs (reference)",
      holds: "report",
    });
    expect(reference!.details.ratio).toBeCloseTo(40 / 38);
  });

  it("misses past 2, or with a single hub call however fast", () => {
    const miss = (ms: number, upstreamCalls: number) =>
      metricsFigures({ small, large: side(200, 1_000_000, ms, 3000), fewLogs, upstreamCalls })[0]!.holds;
    expect(miss(41, 0)).toBe("no");
    expect(miss(21, 1)).toBe("no");
  });
});
