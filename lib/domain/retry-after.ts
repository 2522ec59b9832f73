/**
 * Seconds to wait, from a `Retry-After` header: delta-seconds or an HTTP date. null when the
 * header is absent or unreadable; never negative.
 */
export function parseRetryAfter(header: string | null | undefined, now = Date.now()): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value));
  // An HTTP date names its day and month ("Wed, 21 Oct 2026 07:28:00 GMT"); "-5" is no date.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : NaN;
  return Number.isFinite(date) ? Math.max(0, Math.ceil((date - now) / 1000)) : null;
}
