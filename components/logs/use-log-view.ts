import { useSearchParams } from "next/navigation";
import { useMemo } from "react";
import { parseLogSearchParams, serializeLogSearchParams, type LogViewState } from "@/lib/domain/log-view";

/** The view the address bar names, as of now: for event handlers, which need not subscribe. */
export function readLogView(): LogViewState {
  return parseLogSearchParams(new URLSearchParams(window.location.search));
}

/**
 * Changes the view by writing the URL with the history API (`replace` for opening and closing a
 * log's details). Next's router picks the change up, so `useLogView` readers update; there is no
 * server round trip, and the logs query fetches what the new view needs.
 */
export function setLogView(
  patch: Partial<LogViewState>,
  options: { history?: "push" | "replace" } = {},
): void {
  const query = serializeLogSearchParams({ ...readLogView(), ...patch });
  const url = `${window.location.pathname}${query ? `?${query}` : ""}`;
  if (options.history === "replace") window.history.replaceState(null, "", url);
  else window.history.pushState(null, "", url);
}

/** The log view's state, read from the URL (the only copy). Re-renders its caller when the URL changes. */
export function useLogView(): LogViewState {
  const searchParams = useSearchParams();
  return useMemo(() => parseLogSearchParams(searchParams), [searchParams]);
}
