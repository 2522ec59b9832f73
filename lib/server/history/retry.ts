import "server-only";
import pRetry from "p-retry";
import { isAppError, type AppError } from "@/lib/server/app-error";
import { cancelledByClient } from "@/lib/server/hub/shared-reads";

/**
 * The one retry policy for reading the hub's history: a 429 waits its Retry-After (within the
 * limits below), a 5xx, timeout or unreachable hub backs off exponentially; anything else is thrown.
 */

/** Attempts after the first for a 5xx, a timeout or an unreachable hub. */
export const RETRIES = 3;
/** The first backoff; each next one doubles, and each is stretched by a random factor of 1 to 2. */
export const BACKOFF_MS = 250;
/** 429s in a row before giving up, and the longest Retry-After waited for. */
export const RATE_LIMIT_STRIKES = 6;
export const RETRY_AFTER_MAX_SECONDS = 30;
/** What a 429 without a Retry-After is taken to ask for. */
const DEFAULT_RETRY_AFTER_SECONDS = 5;

function isTransient(error: AppError): boolean {
  return (
    error.code === "upstream_error" ||
    error.code === "upstream_timeout" ||
    error.code === "upstream_unreachable"
  );
}

export interface RetryOptions {
  /** Aborting it stops the retries: the call rejects with the "cancelled by the client" AppError. */
  signal: AbortSignal;
  /** Waits out a 429 that asks for `seconds` (the reader pauses the key's every call); default: a sleep. */
  waitOut?: (seconds: number, signal: AbortSignal) => Promise<void>;
}

/** `read()`, tried again under the policy above. */
export async function withRetry<T>(read: () => Promise<T>, options: RetryOptions): Promise<T> {
  const { signal, waitOut = sleepSeconds } = options;
  let strikes = 0;
  try {
    return await pRetry(read, {
      retries: RETRIES,
      minTimeout: BACKOFF_MS,
      factor: 2,
      randomize: true,
      signal,
      // A 429 is waited out here and consumes none of the 5xx retries (nor their backoff).
      shouldConsumeRetry: ({ error }) => !isRateLimited(error),
      async onFailedAttempt({ error }) {
        if (!isRateLimited(error)) return;
        const seconds = error.retryAfter ?? DEFAULT_RETRY_AFTER_SECONDS;
        if (++strikes > RATE_LIMIT_STRIKES || seconds > RETRY_AFTER_MAX_SECONDS) throw error;
        await waitOut(seconds, signal);
      },
      shouldRetry: ({ error }) =>
        !signal.aborted && (isRateLimited(error) || (isAppError(error) && isTransient(error))),
    });
  } catch (error) {
    // p-retry rejects with the signal's reason when aborted between attempts.
    if (signal.aborted && !isAppError(error)) throw cancelledByClient(error);
    throw error;
  }
}

function isRateLimited(error: unknown): error is AppError {
  return isAppError(error) && error.code === "rate_limited";
}

/** Resolves after `seconds`, or at once when `signal` aborts. */
export function sleepSeconds(seconds: number, signal: AbortSignal): Promise<void> {
  return sleepUntil(Date.now() + seconds * 1000, signal);
}

/** Resolves at `time` (epoch ms), or at once when `signal` aborts. */
export function sleepUntil(time: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const ms = time - Date.now();
    if (signal.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
