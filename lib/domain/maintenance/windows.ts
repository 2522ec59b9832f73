/**
 * Maintenance windows: a one-off (a start and an end) or a weekly one (days of the week, a start
 * time, a duration, a time zone), set on a webhook or a whole application ahead of a planned
 * deploy. Pure arithmetic over epoch milliseconds and IANA zones: when each occurs, whether a
 * moment is inside one, when the current one ends and when the next begins.
 *
 * A weekly window starts at its local time on each chosen day, whatever the offset that day (so
 * 14:00 stays 14:00 across summer time), and lasts its duration in real minutes. A start time a
 * change of clocks skips (02:30 on the spring-forward night) starts as the clocks go forward, at
 * 03:30; one that occurs twice (the autumn night) starts at the first.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;

/** ISO days of the week: 1 = Monday … 7 = Sunday. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_NAMES: Record<Weekday, string> = {
  1: "Monday",
  2: "Tuesday",
  3: "Wednesday",
  4: "Thursday",
  5: "Friday",
  6: "Saturday",
  7: "Sunday",
};

/** A weekly window lasts at most a day; a one-off one at most a week. */
export const WEEKLY_MAX_MINUTES = 24 * 60;
export const ONCE_MAX_MS = 7 * DAY;

export type WindowSchedule =
  | { kind: "once"; startsAt: number; endsAt: number; zone: string }
  | { kind: "weekly"; days: Weekday[]; start: string; durationMinutes: number; zone: string };

/** A span of time, [start, end) in epoch ms. */
export interface Span {
  start: number;
  end: number;
}

/** A wall-clock time in a zone. */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, format);
  }
  return format;
}

/** The wall-clock time at `at` in `zone`. */
export function localTimeAt(at: number, zone: string): LocalTime & { second: number } {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(new Date(at))
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<string, number>;
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** How far `zone` is ahead of UTC at `at`, in ms. */
function offsetAt(at: number, zone: string): number {
  const local = localTimeAt(at, zone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  return asUtc - Math.floor(at / 1000) * 1000;
}

/**
 * The moment a wall-clock time happens in `zone`. Skipped by a change of clocks: the moment the
 * clocks jump past it (so 02:30 becomes 03:30); happening twice: the first.
 */
export function zonedTime(local: LocalTime, zone: string): number {
  const naive = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  // The offsets a day either side: any change of clocks near this time lies between them.
  const offsets = [offsetAt(naive - DAY, zone), offsetAt(naive + DAY, zone)];
  const fits = offsets.map((offset) => naive - offset).filter((at) => naive - offsetAt(at, zone) === at);
  if (fits.length > 0) return Math.min(...fits);
  // In a gap: read with the offset before the change, which lands as far past it as the time was.
  return naive - offsets[0]!;
}

/** "14:00" → minutes after midnight. */
function minutesOf(clock: string): number {
  const [hours, minutes] = clock.split(":").map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/** The ISO weekday of a calendar date. */
function weekdayOf(year: number, month: number, day: number): Weekday {
  const sunday0 = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return (sunday0 === 0 ? 7 : sunday0) as Weekday;
}

/** The times a window is on that overlap [from, to), in order. */
export function occurrences(schedule: WindowSchedule, from: number, to: number): Span[] {
  if (schedule.kind === "once")
    return schedule.startsAt < to && schedule.endsAt > from
      ? [{ start: schedule.startsAt, end: schedule.endsAt }]
      : [];
  const spans: Span[] = [];
  const first = localTimeAt(from, schedule.zone);
  const clock = minutesOf(schedule.start);
  const duration = schedule.durationMinutes * MINUTE;
  // From two days before `from` (an occurrence may still run) to a day after `to`, by calendar date.
  const startDate = Date.UTC(first.year, first.month - 1, first.day) - 2 * DAY;
  for (let date = startDate; date <= to + DAY; date += DAY) {
    const day = new Date(date);
    const [year, month, dayOfMonth] = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate()];
    if (!schedule.days.includes(weekdayOf(year, month, dayOfMonth))) continue;
    const start = zonedTime(
      { year, month, day: dayOfMonth, hour: Math.floor(clock / 60), minute: clock % 60 },
      schedule.zone,
    );
    if (start < to && start + duration > from) spans.push({ start, end: start + duration });
  }
  return spans;
}

/** Spans joined where they overlap or touch, in order. */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const merged: Span[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** What the console says of a webhook's windows at `now`. */
export interface MaintenanceState {
  /** The window (or windows run together) `now` is in; null when none. */
  current: Span | null;
  /** The next one to start after now, within a week (or a one-off's start, however far); null when none. */
  next: Span | null;
}

/** How far ahead the next window is looked for: a weekly one occurs within a week. */
const LOOK_AHEAD = 8 * DAY;

/** Whether `now` is in any of the windows, until when, and when the next one starts. */
export function maintenanceState(schedules: readonly WindowSchedule[], now: number): MaintenanceState {
  const far = Math.max(now + LOOK_AHEAD, ...schedules.map((s) => (s.kind === "once" ? s.endsAt : 0)));
  const spans = mergeSpans(schedules.flatMap((schedule) => occurrences(schedule, now - 2 * DAY, far)));
  return {
    current: spans.find((span) => span.start <= now && now < span.end) ?? null,
    next: spans.find((span) => span.start > now) ?? null,
  };
}

/** The spans of the windows over [from, to], joined: to tell which moments of a range were in maintenance. */
export function maintenanceSpans(schedules: readonly WindowSchedule[], from: number, to: number): Span[] {
  return mergeSpans(schedules.flatMap((schedule) => occurrences(schedule, from, to + 1)));
}

/** Whether `at` falls in one of `spans`. */
export function inSpans(spans: readonly Span[], at: number): boolean {
  return spans.some((span) => span.start <= at && at < span.end);
}
