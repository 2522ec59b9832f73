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

/** The history writes not done yet, chained so that they happen in the order they were asked for. */
let urlWrites: Promise<void> = Promise.resolve();

/**
 * Changes the view by writing the URL with the history API (`replace` for opening and closing a
 * log's details). `useLogView` readers update at once, in the caller's task; the URL is written
 * in a later task, once the new view is on screen: after `rowsReady` settles (the fetch of the
 * rows the view shows), when there is one. Next's router re-renders the whole route when it picks
 * up a history write; done while the rows were on their way, it held them back (Status change
 * 118 ms, after them 58 ms: `npm run bench -- --only browser`). A write that Back, a link or
 * another page has overtaken in the meantime is dropped.
 */
export function setLogView(
  patch: Partial<LogViewState>,
  options: { history?: "push" | "replace"; rowsReady?: Promise<unknown> } = {},
): void {
  const query = serializeLogSearchParams({ ...readLogView(), ...patch });
  const { pathname } = window.location;
  setWritten([...written, query]);
  urlWrites = Promise.all([urlWrites, options.rowsReady?.catch(() => {})])
    .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
    .then(() => {
      if (window.location.pathname !== pathname || !written.includes(query)) return;
      const url = `${pathname}${query ? `?${query}` : ""}`;
      if (options.history === "replace") window.history.replaceState(null, "", url);
      else window.history.pushState(null, "", url);
    });
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
