import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useSyncExternalStore } from "react";
import { parseLogSearchParams, serializeLogSearchParams, type LogViewState } from "@/lib/domain/log-view";

type SetLogView = (patch: Partial<LogViewState>, options?: { history?: "push" | "replace" }) => void;

/** Fired after the view's URL changed, so every reader of the view updates at once. */
const LOG_VIEW_CHANGED = "hub-console:log-view-changed";

function subscribe(onChange: () => void): () => void {
  window.addEventListener(LOG_VIEW_CHANGED, onChange);
  window.addEventListener("popstate", onChange);
  return () => {
    window.removeEventListener(LOG_VIEW_CHANGED, onChange);
    window.removeEventListener("popstate", onChange);
  };
}

/** The view the address bar names, as of now. */
export function readLogView(): LogViewState {
  return parseLogSearchParams(new URLSearchParams(window.location.search));
}

/** The view in its one canonical spelling, so equal views compare equal as strings. */
const currentSearch = () => serializeLogSearchParams(readLogView());

/**
 * Changes the view: writes the URL (`history.pushState`, or `replaceState` for opening and
 * closing a log's details), then tells every `useLogView` reader. No server round trip; the logs
 * query fetches what the new view needs. Callable from any event handler: it reads the current
 * view from the URL itself.
 */
export const setLogView: SetLogView = (patch, options = {}) => {
  const query = serializeLogSearchParams({ ...readLogView(), ...patch });
  const url = `${window.location.pathname}${query ? `?${query}` : ""}`;
  if (options.history === "replace") window.history.replaceState(null, "", url);
  else window.history.pushState(null, "", url);
  window.dispatchEvent(new Event(LOG_VIEW_CHANGED));
};

/**
 * The log view's state, read from the URL; the URL is the only copy. It is read from
 * `window.location` itself, not from Next's router: a change made in the first moments after load
 * can run before Next has hooked the history API, and must not be lost. `initial` is the view the
 * server rendered for the page at `pathname` (the snapshot for the server render and hydration,
 * and while a soft navigation to this page has not yet written its URL: Next does that after
 * rendering the new page, and `LogViewUrlWatcher` then tells this hook).
 *
 * Only the components that call this re-render when the view changes; a component that only
 * changes the view calls `setLogView` and does not subscribe.
 */
export function useLogView(initial: LogViewState, pathname: string): LogViewState {
  const serverSearch = serializeLogSearchParams(initial);
  const snapshot = useCallback(
    () => (window.location.pathname === pathname ? currentSearch() : serverSearch),
    [pathname, serverSearch],
  );
  const search = useSyncExternalStore(subscribe, snapshot, () => serverSearch);
  return useMemo(() => parseLogSearchParams(new URLSearchParams(search)), [search]);
}

/**
 * Renders nothing; tells `useLogView` readers when one of Next's own navigations (a link, back to
 * a soft-navigated page) changed the URL. It is the only consumer of Next's `useSearchParams` on
 * the page, so Next's router re-renders this and not the log table when the URL changes.
 */
export function LogViewUrlWatcher(): null {
  const searchParams = useSearchParams();
  useEffect(() => {
    window.dispatchEvent(new Event(LOG_VIEW_CHANGED));
  }, [searchParams]);
  return null;
}
