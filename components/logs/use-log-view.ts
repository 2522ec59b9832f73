import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { parseLogSearchParams, serializeLogSearchParams, type LogViewState } from "@/lib/logs/search-params";

export type SetLogView = (patch: Partial<LogViewState>, options?: { history?: "push" | "replace" }) => void;

/**
 * The log view's state, read from the URL and written back to it. The URL is the only copy:
 * changes go through `history.pushState`/`replaceState`, which Next's router picks up
 * (`useSearchParams` updates) without a server round trip; the logs query then fetches.
 */
export function useLogView(): [LogViewState, SetLogView] {
  const searchParams = useSearchParams();
  const view = useMemo(() => parseLogSearchParams(searchParams), [searchParams]);

  const setView = useCallback<SetLogView>((patch, options = {}) => {
    const current = parseLogSearchParams(new URLSearchParams(window.location.search));
    const query = serializeLogSearchParams({ ...current, ...patch });
    const url = `${window.location.pathname}${query ? `?${query}` : ""}`;
    if (options.history === "replace") window.history.replaceState(null, "", url);
    else window.history.pushState(null, "", url);
  }, []);

  return [view, setView];
}
