/**
 * The hand-over's rows of the bench's table (issue 27): Find across every watched webhook ÷ Find
 * inside one, both from the store, and a support bundle's time per failure as the incident grows.
 * Pure: built from what handover.ts measured, judged against GOALS (figures.ts), unit-tested in
 * handover-figures.test.ts.
 */
import { GOALS } from "./figures";
import { formatCount, formatMs, ratioFigure, type Figure } from "./report";
import { median, ratio } from "./stats";

export interface FindSides {
  large: { webhooks: number; logs: number; ms: number[] };
  small: { logs: number; ms: number[] };
}

export function findAcrossFigure({ large, small }: FindSides): Figure {
  const value = ratio(median(large.ms), median(small.ms));
  return ratioFigure(
    `Find across ${formatCount(large.webhooks)} watched webhooks and ${formatCount(large.logs)} stored logs ÷ inside one webhook of ${formatCount(small.logs)}`,
    value,
    GOALS.findAcross,
    `p50 ${formatMs(median(large.ms))} ÷ ${formatMs(median(small.ms))}, by message ID, ${formatCount(large.ms.length)} finds each, in turns, from the store`,
    { large, small },
  );
}

export interface BundleSide {
  failures: number;
  ms: number[];
  /** Characters of the three formats together. */
  chars: number;
}

/** The larger incident's time per failure ÷ the smaller one's. */
export function bundleGrowthFigure(sides: readonly [BundleSide, BundleSide]): Figure {
  const [small, large] = [...sides].sort((a, b) => a.failures - b.failures) as [BundleSide, BundleSide];
  const perFailure = (side: BundleSide) => median(side.ms) / side.failures;
  const value = ratio(perFailure(large), perFailure(small));
  return ratioFigure(
    `support bundle of a ${formatCount(large.failures)}-failure incident, per failure ÷ a ${formatCount(small.failures)}-failure one's`,
    value,
    GOALS.bundleGrowth,
    `generated, redacted and rendered as Markdown, HTML and JSON in p50 ${formatMs(median(large.ms))} ` +
      `(${formatCount(large.chars)} characters) vs ${formatMs(median(small.ms))} (${formatCount(small.chars)}); ` +
      `${formatMs(perFailure(large))} ÷ ${formatMs(perFailure(small))} per failure, ${formatCount(large.ms.length)} runs each, in turns`,
    { small, large },
  );
}
