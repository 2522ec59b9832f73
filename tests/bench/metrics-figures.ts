/**
 * The /metrics rows of the bench's table (issue 37): a scrape of a console over a large store ÷
 * over a small one and the hub calls the scrapes made (judged), and, for reference, the same 200
 * watches over a hundredth of the logs: what the logs alone cost a scrape. Pure: built from what
 * metrics.ts measured, judged against GOALS (figures.ts), unit-tested in metrics-figures.test.ts.
 */
import { GOALS } from "./figures";
import { formatCount, formatMs, formatRatio, goalText, judge, ratioFigure, type Figure } from "./report";
import { median, ratio } from "./stats";

/** One side: a console over a store of `webhooks` watches and `logs` logs, scraped in turns with the others. */
export interface ScrapeSide {
  webhooks: number;
  logs: number;
  /** Each `GET /metrics` until its last byte. */
  totalMs: number[];
  /** Samples in one answer. */
  series: number;
}

const sideText = (s: ScrapeSide) => `${formatCount(s.webhooks)} watches and ${formatCount(s.logs)} logs`;
const parts = (a: ScrapeSide, b: ScrapeSide) =>
  `whole answer p50 ${formatMs(median(a.totalMs))} ÷ ${formatMs(median(b.totalMs))}; ` +
  `${formatCount(a.series)} ÷ ${formatCount(b.series)} series; ${formatCount(a.totalMs.length)} scrapes each, in turns`;

export function metricsFigures(input: {
  small: ScrapeSide;
  large: ScrapeSide;
  /** As many watches as `large`, as many logs as `small`. */
  fewLogs: ScrapeSide;
  upstreamCalls: number;
}): Figure[] {
  const { small, large, fewLogs, upstreamCalls } = input;
  const value = ratio(median(large.totalMs), median(small.totalMs));
  const holds =
    judge(value, GOALS.metricsScale) === "yes" && judge(upstreamCalls, GOALS.metricsCalls) === "yes";
  return [
    {
      figure: `metrics scrape, ${sideText(large)} ÷ ${sideText(small)}`,
      measured: `${formatRatio(value)} (${parts(large, small)}; ${formatCount(upstreamCalls)} hub calls)`,
      goal: `${goalText(GOALS.metricsScale)}; ${formatCount(GOALS.metricsCalls.atMost)} hub calls`,
      holds: holds ? "yes" : "no",
      details: { ratio: value, upstreamCalls, small, large },
    },
    ratioFigure(
      `metrics scrape, ${sideText(large)} ÷ ${sideText(fewLogs)} (reference)`,
      ratio(median(large.totalMs), median(fewLogs.totalMs)),
      null,
      parts(large, fewLogs),
      { fewLogs },
    ),
  ];
}
