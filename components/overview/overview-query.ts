import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { apiRequest } from "@/lib/browser/api";
import type { OverviewAnswer, OverviewView } from "@/lib/domain/watch/overview-page";
import { overviewHref } from "@/components/overview/search-params";

/** How often the overview reads the store again while it is open. */
export const OVERVIEW_REFRESH_MS = 15_000;

/** One view of the overview (its filters and page, as the URL holds them); the last one stays on screen while the next loads. */
export function overviewQueryOptions(view: OverviewView) {
  return queryOptions({
    queryKey: ["watches", "overview", view],
    queryFn: ({ signal }) => apiRequest<OverviewAnswer>(overviewHref("/api/watches", view), { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: OVERVIEW_REFRESH_MS,
    staleTime: OVERVIEW_REFRESH_MS / 2,
  });
}
