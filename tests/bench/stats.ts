/**
 * Pure arithmetic of the benchmark: percentiles, medians, ratios, and the order in which two
 * sides take turns. Kept free of I/O so it can be unit-tested (stats.test.ts).
 */

/** The q-quantile (0..1) of samples, by linear interpolation between closest ranks (type 7). */
export function percentile(samples: readonly number[], q: number): number {
  if (samples.length === 0) throw new Error("percentile of no samples");
  if (!(q >= 0 && q <= 1)) throw new Error(`quantile must be within 0..1, got ${q}`);
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const lowValue = sorted[low] as number;
  const highValue = sorted[high] as number;
  return lowValue + (highValue - lowValue) * (rank - low);
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 0.5);
}

/** a ÷ b, refusing what would print as a meaningless figure. */
export function ratio(a: number, b: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b <= 0 || a < 0) {
    throw new Error(`cannot form a ratio of ${a} to ${b}`);
  }
  return a / b;
}

/**
 * The turns of two sides over `rounds` rounds each, in ABBA order (A B B A A B B A ...), so a
 * drift of the machine over the run weighs on both sides alike.
 */
export function abbaOrder(rounds: number): Array<"A" | "B"> {
  return rotationOrder(2, rounds).map((i) => (i === 0 ? "A" : "B"));
}

/**
 * The turns of `sides` sides (by index) over `rounds` rounds each, forwards then backwards
 * (0 1 2 2 1 0 0 1 2 ...): ABBA for any number of sides, so a drift weighs on all alike.
 */
export function rotationOrder(sides: number, rounds: number): number[] {
  const forwards = Array.from({ length: sides }, (_, i) => i);
  const backwards = [...forwards].reverse();
  const order: number[] = [];
  for (let i = 0; i < rounds; i++) order.push(...(i % 2 === 0 ? forwards : backwards));
  return order;
}
