import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "@/lib/browser/api";
import type { IncidentsAnswer } from "@/lib/domain/alerts/incidents";

/** How often an open page reads the incidents again (react-query pauses it in a hidden tab). */
export const INCIDENTS_REFRESH_MS = 15_000;

/**
 * The incidents of every application in the session: the banner and the Alerts page share them.
 * Read on every page without anyone asking, they are a poll: its 401 ends no session (see onQueryError).
 */
export function incidentsQueryOptions() {
  return queryOptions({
    queryKey: ["alerts", "incidents"] as const,
    meta: { poll: true },
    queryFn: ({ signal, meta }) =>
      apiRequest<IncidentsAnswer>("/api/alerts/incidents", { signal, poll: meta?.poll }),
    refetchInterval: INCIDENTS_REFRESH_MS,
    staleTime: INCIDENTS_REFRESH_MS / 2,
  });
}
