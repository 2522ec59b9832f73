/** How long ago, short: `12 s`, `4 min`, `3 h`, `2 days`; `0 s` for a time ahead of `now` (clocks differ). */
export function formatAge(iso: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  const days = Math.floor(seconds / 86_400);
  return `${days} ${days === 1 ? "day" : "days"}`;
}

/** Seconds as a duration a person reads: `0 s`, `45 s`, `3 min`, `2 h`. */
export function formatSeconds(seconds: number): string {
  return formatAge(new Date(0).toISOString(), seconds * 1000);
}

const formats = new Map<string, Intl.DateTimeFormat>();

function format(key: string, options: Intl.DateTimeFormatOptions, locale?: string): Intl.DateTimeFormat {
  let found = formats.get(key);
  if (!found) formats.set(key, (found = new Intl.DateTimeFormat(locale, options)));
  return found;
}

/**
 * A moment on the clock of `timeZone` (the viewer's by default): the time alone when it falls on
 * the same day as `now`, else its date too (`21 Nov, 06:12`; the year when not this year).
 */
export function formatClock(
  iso: string,
  now: number,
  options: { timeZone?: string; locale?: string } = {},
): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const { timeZone, locale } = options;
  const day = format(
    `day|${locale}|${timeZone}`,
    { timeZone, year: "numeric", month: "2-digit", day: "2-digit" },
    locale,
  );
  const time = format(`time|${locale}|${timeZone}`, { timeZone, hour: "2-digit", minute: "2-digit" }, locale);
  if (day.format(date) === day.format(now)) return time.format(date);
  const sameYear = date.getUTCFullYear() === new Date(now).getUTCFullYear();
  const dateFormat = format(
    `date|${locale}|${timeZone}|${sameYear}`,
    { timeZone, day: "numeric", month: "short", ...(sameYear ? {} : { year: "numeric" }) },
    locale,
  );
  return `${dateFormat.format(date)}, ${time.format(date)}`;
}
