import { environmentManager, QueryCache, QueryClient, type Query } from "@tanstack/react-query";
import { isApiError } from "@/lib/browser/api";
import { onUnauthorized } from "@/lib/browser/unauthorized";

/**
 * One QueryClient per server request (pages prefetch into it and dehydrate it), one for the
 * whole life of the browser tab. See TanStack Query's "Advanced Server Rendering" guide.
 */

/** Hydrated data is fresh this long, so the client does not refetch what the server just sent. */
const STALE_TIME_MS = 30_000;
const MAX_RETRIES = 2;

/** GETs are retried on network errors and 5xx only: a 4xx will not get better by asking again. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  if (!isApiError(error)) return true;
  return error.status === 0 || error.status >= 500;
}

/** Exponential backoff: 1 s, 2 s, 4 s… at most 8 s. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 8000);
}

declare module "@tanstack/react-query" {
  interface Register {
    /** `poll`: a read the page makes on its own (the alerts banner's), not one a person asked for. */
    queryMeta: { poll?: boolean };
  }
}

/**
 * A 401 of a person's read sends them to sign in (or to Applications); a poll's does not, so a
 * background read cannot pull the session from under a person replacing the key on Applications.
 */
export function onQueryError(error: unknown, query: Pick<Query, "meta">): void {
  if (!query.meta?.poll) onUnauthorized(error);
}

function makeQueryClient(): QueryClient {
  const server = environmentManager.isServer();
  return new QueryClient({
    queryCache: server ? undefined : new QueryCache({ onError: onQueryError }),
    defaultOptions: {
      queries: { staleTime: STALE_TIME_MS, retry: shouldRetry, retryDelay },
    },
  });
}

let browserQueryClient: QueryClient | undefined;

export function getQueryClient(): QueryClient {
  if (environmentManager.isServer()) return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}
