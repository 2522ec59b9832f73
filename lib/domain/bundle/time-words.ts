/**
 * Times and spans said for the person a bundle is written for, in the time zone they picked.
 */

/** The zone as given when the runtime knows it (`Europe/Berlin`, `UTC`); null otherwise. */
export function parseTimeZone(raw: string): string | null {
  const value = raw.trim();
  if (value === "" || value.length > 64) return null;
  try {
    return new Intl.DateTimeFormat("en-GB", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

function partsIn(time: number, timeZone: string) {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(time).map((part) => [part.type, part.value]));
  return {
    clock: `${parts.hour}:${parts.minute}`,
    day: `${parts.day} ${parts.month}`,
    year: parts.year!,
    date: `${parts.year} ${parts.month} ${parts.day}`,
  };
}

/** `09:12 today`, `09:12 yesterday`, `09:12 on 23 Nov`, `09:12 on 23 Nov 2025`, in `timeZone`. */
export function timeWords(time: number, now: number, timeZone: string): string {
  const at = partsIn(time, timeZone);
  const today = partsIn(now, timeZone);
  if (at.date === today.date) return `${at.clock} today`;
  if (at.date === partsIn(now - 86_400_000, timeZone).date) return `${at.clock} yesterday`;
  return at.year === today.year ? `${at.clock} on ${at.day}` : `${at.clock} on ${at.day} ${at.year}`;
}

/** `2026-11-25 10:12:03 (Europe/Berlin)`: exact, for tables. */
export function exactTime(time: number, timeZone: string): string {
  const format = new Intl.DateTimeFormat("sv-SE", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  return `${format.format(time)} (${timeZone})`;
}

/** `45 s`, `12 min`, `3 h 5 min`, `2 d 4 h`. */
export function spanWords(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}
