/**
 * A count as `1,234,567`: what `n.toLocaleString("en")` gives for a whole number, without Intl.
 * The first use of Intl in a page loads the browser's locale data (tens of milliseconds on one
 * core), so a count rendered while the page hydrates must not be what pays for it.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en");
  const digits = String(Math.abs(n));
  let grouped = "";
  for (let end = digits.length; end > 0; end -= 3)
    grouped = digits.slice(Math.max(0, end - 3), end) + (grouped ? `,${grouped}` : "");
  return n < 0 ? `-${grouped}` : grouped;
}
