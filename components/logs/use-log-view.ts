import { useSearchParams } from "next/navigation";
import { useCallback, useMemo, useSyncExternalStore } from "react";
import { parseLogSearchParams, serializeLogSearchParams, type LogViewState } from "@/lib/logs/search-params";

export type SetLogView = (patch: Partial<LogViewState>, options?: { history?: "push" | "replace" }) => void;

/** Fired after `setView` writes the URL, so every reader of the view updates at once. */
const LOG_VIEW_CHANGED = "hub-console:log-view-changed";

function subscribe(onChange: () => void): () => void {
  window.addEventListener(LOG_VIEW_CHANGED, onChange);
  window.addEventListener("popstate", onChange);
  return () => {
    window.removeEventListener(LOG_VIEW_CHANGED, onChange);
    window.removeEventListener("popstate", onChange);
  };
}

const currentSearch = () => window.location.search.replace(/^\?/, "");

/**
 * The log view's state, read from the URL and written back to it. The URL is the only copy:
 * changes go through `history.pushState`/`replaceState` (no server round trip), then the logs
 * query fetches. The view is read from `window.location` itself, not only from Next's router:
 * a change made in the first moments after load can run before Next has hooked the history API,
 * and must not be lost. Next's own navigations re-render this hook through `useSearchParams`.
 */
export function useLogView(): [LogViewState, SetLogView] {
  const searchParams = useSearchParams();
  const search = useSyncExternalStore(subscribe, currentSearch, () => searchParams.toString());
  const view = useMemo(() => parseLogSearchParams(new URLSearchParams(search)), [search]);

  const setView = useCallback<SetLogView>((patch, options = {}) => {
    const current = parseLogSearchParams(new URLSearchParams(window.location.search));
    const query = serializeLogSearchParams({ ...current, ...patch });
    const url = `${window.location.pathname}${query ? `?${query}` : ""}`;
    if (options.history === "replace") window.history.replaceState(null, "", url);
    else window.history.pushState(null, "", url);
    window.dispatchEvent(new Event(LOG_VIEW_CHANGED));
  }, []);

  return [view, setView];
}
