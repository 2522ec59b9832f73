import { useSearchParams } from "next/navigation";
import { useLayoutEffect, useMemo, useSyncExternalStore } from "react";
import { parseLogSearchParams, serializeLogSearchParams, type LogViewState } from "@/lib/domain/log-view";

/** The view the address bar names (or is about to: see `setLogView`), for event handlers, which need not subscribe. */
export function readLogView(): LogViewState {
  return parseLogSearchParams(new URLSearchParams(latestWritten() ?? window.location.search));
}

/** A view's query string in one spelling, so that two spellings of the same view compare equal. */
function canonical(search: string | URLSearchParams): string {
  return serializeLogSearchParams(parseLogSearchParams(new URLSearchParams(search)));
}

/**
 * Views written by `setLogView` that Next's router has not reported yet, oldest first. Next picks
 * up a history write in a transition: a render of the whole route, sliced into many tasks. The
 * log table reads the newest written view at once instead, in the same task as the click, and
 * goes back to the router's answer when the router has caught up (or gone elsewhere).
 */
let written: string[] = [];
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function setWritten(next: string[]): void {
  written = next;
  listeners.forEach((notify) => notify());
}

function latestWritten(): string | null {
  return written[written.length - 1] ?? null;
}

/**
 * Changes the view by writing the URL with the history API (`replace` for opening and closing a
 * log's details). `useLogView` readers update at once, in the caller's task; the URL is written in
 * the next task, once the new view is on screen (Next's router, which picks the write up, does
 * some work of its own first). There is no server round trip, and the logs query fetches what the
 * new view needs.
 */
export function setLogView(
  patch: Partial<LogViewState>,
  options: { history?: "push" | "replace" } = {},
): void {
  const query = serializeLogSearchParams({ ...readLogView(), ...patch });
  const url = `${window.location.pathname}${query ? `?${query}` : ""}`;
  setWritten([...written, query]);
  setTimeout(() => {
    if (options.history === "replace") window.history.replaceState(null, "", url);
    else window.history.pushState(null, "", url);
  }, 0);
}

/** The log view's state, read from the URL (the only copy). Re-renders its caller when the URL changes. */
export function useLogView(): LogViewState {
  const fromRouter = canonical(useSearchParams());
  const pending = useSyncExternalStore(subscribe, latestWritten, () => null);
  // The router reported a view: the writes up to it are done; one nobody wrote here (Back,
  // a link) replaces them all.
  useLayoutEffect(() => {
    if (written.length === 0) return;
    const at = written.indexOf(fromRouter);
    setWritten(at === -1 ? [] : written.slice(at + 1));
  }, [fromRouter]);
  const search = pending ?? fromRouter;
  return useMemo(() => parseLogSearchParams(new URLSearchParams(search)), [search]);
}
