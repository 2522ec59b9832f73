import "server-only";

/**
 * Settings of the history scan, read from the environment once (see README, "Configuration").
 * A bad value stops the first scan with a message naming the variable.
 */
export interface HistoryConfig {
  /** HISTORY_SCAN_CONCURRENCY: upstream calls in flight per scan (default 4, at most 16). */
  concurrency: number;
  /** HISTORY_SCAN_CAP: logs one scan reads at most, unless it asks for more (default 20,000). */
  cap: number;
  /** HISTORY_SCAN_CAP_MAX: the most a scan may ask for with `cap=` (default 100,000). */
  capMax: number;
  /** HISTORY_CACHE_SECONDS: how long a finished window is kept for the next question (default 30). */
  cacheSeconds: number;
  /** HISTORY_CACHE_MB: memory all kept windows may use together (default 64). */
  cacheBytes: number;
}

function positiveInt(name: string, fallback: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0 || value > max) {
    throw new Error(
      `${name} must be a whole number from 1 to ${max}, got "${raw}". Fix it or unset it to use ${fallback}.`,
    );
  }
  return value;
}

let cached: HistoryConfig | undefined;

export function historyConfig(): HistoryConfig {
  if (cached) return cached;
  const capMax = positiveInt("HISTORY_SCAN_CAP_MAX", 100_000, 10_000_000);
  const cap = positiveInt("HISTORY_SCAN_CAP", 20_000, capMax);
  cached = {
    concurrency: positiveInt("HISTORY_SCAN_CONCURRENCY", 4, 16),
    cap,
    capMax,
    cacheSeconds: positiveInt("HISTORY_CACHE_SECONDS", 30, 3600),
    cacheBytes: positiveInt("HISTORY_CACHE_MB", 64, 65_536) * 1024 * 1024,
  };
  return cached;
}

/** For tests that change the environment between cases. */
export function resetHistoryConfigForTests(): void {
  cached = undefined;
}
