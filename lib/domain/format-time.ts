/**
 * How the console writes a moment: one full form (date, time with seconds, zone) and one short
 * form (the time alone today, with the date another day), both in the viewer's locale and time
 * zone, so every page writes times one way. The server knows neither: the first render (server
 * and hydration) writes UTC in a fixed locale (FIRST_RENDER), and the viewer's form replaces it
 * after mount. Every component writes times through this module.
 */

/** A locale and a time zone to write in; unset, the viewer's own (the browser's). */
export interface TimeStyle {
  locale?: string;
  timeZone?: string;
  /** The short forms name the zone too (the full form always does): for a zone that is not the viewer's. */
  namesZone?: boolean;
}

/** The viewer's locale and zone. */
export const VIEWER: TimeStyle = {};

/** Before mount: UTC, said as such, in one locale, so the server and the hydrating browser write the same. */
export const FIRST_RENDER: TimeStyle = { locale: "en-GB", timeZone: "UTC", namesZone: true };

/** The style for a render: the viewer's once mounted (`now` is the browser's clock, 0 before). */
export function timeStyleAt(now: number): TimeStyle {
  return now ? VIEWER : FIRST_RENDER;
}

const CLOCK: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit" };
const DAY: Intl.DateTimeFormatOptions = { day: "numeric", month: "short" };

const formats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per form, locale and zone: building one costs far more than using it. */
function formatter(form: string, options: Intl.DateTimeFormatOptions, style: TimeStyle): Intl.DateTimeFormat {
  const key = `${form}|${style.locale ?? ""}|${style.timeZone ?? ""}|${style.namesZone ? "zone" : ""}`;
  let found = formats.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(style.locale, { ...options, timeZone: style.timeZone });
    formats.set(key, found);
  }
  return found;
}

function dateOf(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

const zoned = (style: TimeStyle): Intl.DateTimeFormatOptions =>
  style.namesZone ? { timeZoneName: "short" } : {};

/**
 * The full form: `21 Nov 2025, 17:07:03 CET` (en-GB), `Nov 21, 2025, 05:07:03 PM CET` (en-US).
 * `exact` adds the milliseconds when there are some. What it cannot read comes back as it is.
 */
export function formatTimestamp(iso: string, style: TimeStyle, exact = false): string {
  const date = dateOf(iso);
  if (!date) return iso;
  const ms = exact ? date.getUTCMilliseconds() : 0;
  const options: Intl.DateTimeFormatOptions = {
    year: "numeric",
    ...DAY,
    ...CLOCK,
    second: "2-digit",
    ...(ms ? { fractionalSecondDigits: 3 } : {}),
    timeZoneName: "short",
  };
  return formatter(ms ? "full-ms" : "full", options, style).format(date);
}

/** The exact moment in UTC, in the full form (for a `title`, and beside a local time where it matters). */
export function formatExactUtc(iso: string, style: TimeStyle): string {
  return formatTimestamp(iso, { locale: style.locale, timeZone: "UTC" }, true);
}

/** The clock alone: `09:12` (en-GB), `09:12 AM` (en-US). */
export function formatClock(iso: string, style: TimeStyle): string {
  const date = dateOf(iso);
  return date ? formatter("clock", { ...CLOCK, ...zoned(style) }, style).format(date) : iso;
}

/** The day alone: `21 Nov` (en-GB), `Nov 21` (en-US). */
export function formatDay(iso: string, style: TimeStyle): string {
  const date = dateOf(iso);
  return date ? formatter("day", DAY, style).format(date) : iso;
}

/** The day and the clock: `21 Nov, 09:12`; with `year`, `21 Nov 2025, 09:12`. */
export function formatDayClock(iso: string, style: TimeStyle, year = false): string {
  const date = dateOf(iso);
  if (!date) return iso;
  const options = { ...(year ? { year: "numeric" as const } : {}), ...DAY, ...CLOCK, ...zoned(style) };
  return formatter(year ? "day-clock-year" : "day-clock", options, style).format(date);
}

/**
 * The short form, as short as stays unambiguous on `now`'s day (ms since the epoch) in the style's
 * zone: `09:12` that day, `21 Nov, 09:12` another day of its year, `31 Dec 2025, 23:05` another year.
 */
export function formatShortTime(iso: string, now: number, style: TimeStyle): string {
  const date = dateOf(iso);
  if (!date) return iso;
  const day = formatter("date", { year: "numeric", month: "2-digit", day: "2-digit" }, style);
  if (day.format(date) === day.format(now)) return formatClock(iso, style);
  const yearOf = formatter("year", { year: "numeric" }, style);
  return formatDayClock(iso, style, yearOf.format(date) !== yearOf.format(now));
}

/**
 * Exact UTC, ISO-like (`2025-11-21 16:07:03 UTC`, milliseconds when there are some): for text the
 * server writes, which knows no viewer. What it cannot read comes back as it is.
 */
export function formatUtc(iso: string): string {
  const date = dateOf(iso);
  if (!date) return iso;
  const text = date.toISOString();
  return `${text.slice(0, 10)} ${text.slice(11, 19)}${text.slice(19, 23) === ".000" ? "" : text.slice(19, 23)} UTC`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY_MS = 24 * HOUR;

/**
 * How long before `now` (ms since the epoch) it was: `just now`, `4 min ago`, `3 h ago`; null when
 * it is a day old or more, unparseable, or more than a minute ahead (a clock that runs ahead), so
 * the caller writes the moment instead.
 */
export function formatRelative(iso: string, now: number): string | null {
  const age = now - new Date(iso).getTime();
  if (!(age > -MINUTE && age < DAY_MS)) return null;
  if (age < MINUTE) return "just now";
  if (age < HOUR) return `${Math.floor(age / MINUTE)} min ago`;
  return `${Math.floor(age / HOUR)} h ago`;
}
