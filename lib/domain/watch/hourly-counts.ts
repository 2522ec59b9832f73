/**
 * A webhook's attempts of the last 24 h, one count per hour, as the overview sends them: the
 * first hour's start once, then plain arrays, so 200 rows stay a small answer.
 */

/** The span of one of the store's hourly counts (`watch_log_hours`), keyed by its start. */
export const HOUR_MS = 3_600_000;
export const HOURS_SHOWN = 24;

export interface HourlyCounts {
  /** ISO start of the oldest hour; the last of the HOURS_SHOWN hours is the current one. */
  from: string;
  /** Successful attempts per hour, oldest first. */
  success: number[];
  /** Failed attempts per hour, oldest first. */
  failed: number[];
}

/** The start (ms) of the oldest of the HOURS_SHOWN hours that end with the one holding `now`. */
export function firstHourOf(now: number): number {
  return Math.floor(now / HOUR_MS) * HOUR_MS - (HOURS_SHOWN - 1) * HOUR_MS;
}

/**
 * Stored hourly counts (each keyed by its hour's start, ms) summed into the HOURS_SHOWN hours
 * from `firstHour`; an hour outside them, or not on an hour's start, is left out.
 */
export function hourlyCounts(
  firstHour: number,
  hours: Iterable<{ hour: number; success: number; failed: number }>,
): HourlyCounts {
  const success = new Array<number>(HOURS_SHOWN).fill(0);
  const failed = new Array<number>(HOURS_SHOWN).fill(0);
  for (const hour of hours) {
    const index = (hour.hour - firstHour) / HOUR_MS;
    if (!Number.isInteger(index) || index < 0 || index >= HOURS_SHOWN) continue;
    success[index]! += hour.success;
    failed[index]! += hour.failed;
  }
  return { from: new Date(firstHour).toISOString(), success, failed };
}

/** The sum of a run of counts. */
export function total(counts: readonly number[]): number {
  let sum = 0;
  for (const count of counts) sum += count;
  return sum;
}
