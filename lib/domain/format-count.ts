/**
 * A count as `1,234,567`: what `n.toLocaleString("en")` gives for a whole number, without Intl.
 * The first use of Intl in a page loads the browser's locale data (tens of milliseconds on one
 * core), so a count rendered while the page hydrates must not be what pays for it.
 */
export function formatCount(n: number): string {
  return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ",") : n.toLocaleString("en");
}

/** A count and its noun, singular for exactly one: `1 failure`, `1,234 failures`, `2 replies` (with `plural`). */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(n)} ${n === 1 ? noun : plural}`;
}
