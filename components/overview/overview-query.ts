import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "@/lib/browser/api";
import type { OverviewAnswer } from "@/lib/domain/watching/overview";

/** How often the overview reads the store again while it is open. */
export const OVERVIEW_REFRESH_MS = 15_000;

export const overviewKey = ["watches", "overview"] as const;

/** Every watched webhook of the session's applications (the route reads them all, whatever `?app=` the page filters by). */
export function overviewQueryOptions() {
  return queryOptions({
    queryKey: overviewKey,
    queryFn: ({ signal }) => apiRequest<OverviewAnswer>("/api/watches", { signal }),
    refetchInterval: OVERVIEW_REFRESH_MS,
    staleTime: OVERVIEW_REFRESH_MS / 2,
  });
}
