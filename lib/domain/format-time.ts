/**
 * Timestamps of logs. The server has no idea of the viewer's time zone, so the first render
 * (server and hydration) shows exact UTC; after mount the viewer's local time (or, in the table,
 * how long ago) replaces it, and the exact UTC stays in the `title`.
 */

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

/** `2025-11-21 16:07:03 UTC` (milliseconds shown only when there are some); the input itself when unparseable. */
export function formatUtc(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const ms = date.getUTCMilliseconds();
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}` +
    `${ms ? `.${pad(ms, 3)}` : ""} UTC`
  );
}

const localFormats = new Map<string, Intl.DateTimeFormat>();

/** The time in the viewer's (or the given) time zone, e.g. `21 Nov 2025, 17:07:03 CET`. */
export function formatLocal(iso: string, options: { timeZone?: string; locale?: string } = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const key = `${options.locale ?? ""}|${options.timeZone ?? ""}`;
  let format = localFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(options.locale, {
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "short",
      timeZone: options.timeZone,
    });
    localFormats.set(key, format);
  }
  return format.format(date);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long before `now` (ms since the epoch) it was: `just now`, `4 min ago`, `3 h ago`; null when
 * it is a day old or more, unparseable, or more than a minute ahead (a clock that runs ahead), so
 * the caller shows the absolute time.
 */
export function formatRelative(iso: string, now: number): string | null {
  const age = now - new Date(iso).getTime();
  if (!(age > -MINUTE && age < DAY)) return null;
  if (age < MINUTE) return "just now";
  if (age < HOUR) return `${Math.floor(age / MINUTE)} min ago`;
  return `${Math.floor(age / HOUR)} h ago`;
}

/** Like `formatRelative`, and "2 days ago" past a day; what it cannot read (or a time ahead) comes back as it is. */
export function formatAgo(iso: string, now = Date.now()): string {
  const recent = formatRelative(iso, now);
  if (recent) return recent;
  const days = Math.floor((now - Date.parse(iso)) / DAY);
  return days >= 1 ? `${days} ${days === 1 ? "day" : "days"} ago` : iso;
}
