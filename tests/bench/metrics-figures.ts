/**
 * The /metrics row of the bench's table (issue 37): a scrape of a console over a large store ÷
 * over a small one, and the hub calls the scrapes made. Pure: built from what metrics.ts
 * measured, judged against GOALS (figures.ts), unit-tested in metrics-figures.test.ts.
 */
import { GOALS } from "./figures";
import { formatCount, formatMs, formatRatio, goalText, judge, type Figure } from "./report";
import { median, ratio } from "./stats";

/** One side: a console over a store of `webhooks` watches and `logs` logs, scraped in turns with the other. */
export interface ScrapeSide {
  webhooks: number;
  logs: number;
  /** Each `GET /metrics` until its last byte. */
  totalMs: number[];
  /** Samples in one answer. */
  series: number;
}

export function metricsFigure(input: {
  small: ScrapeSide;
  large: ScrapeSide;
  upstreamCalls: number;
}): Figure {
  const { small, large, upstreamCalls } = input;
  const value = ratio(median(large.totalMs), median(small.totalMs));
  const holds =
    judge(value, GOALS.metricsScale) === "yes" && judge(upstreamCalls, GOALS.metricsCalls) === "yes";
  const side = (s: ScrapeSide) => `${formatCount(s.webhooks)} watches and ${formatCount(s.logs)} logs`;
  return {
    figure: `metrics scrape, ${side(large)} ÷ ${side(small)}`,
    measured:
      `${formatRatio(value)} (whole answer p50 ${formatMs(median(large.totalMs))} ÷ ${formatMs(median(small.totalMs))}; ` +
      `${formatCount(large.series)} ÷ ${formatCount(small.series)} series; ` +
      `${formatCount(large.totalMs.length)} scrapes each, in turns; ${formatCount(upstreamCalls)} hub calls)`,
    goal: `${goalText(GOALS.metricsScale)}; ${formatCount(GOALS.metricsCalls.atMost)} hub calls`,
    holds: holds ? "yes" : "no",
    details: { ratio: value, upstreamCalls, small, large },
  };
}
