import { useDeferredValue, useSyncExternalStore } from "react";

let now = 0;
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    now = Date.now();
    listeners.forEach((notify) => notify());
  }, 30_000);
  return () => listeners.delete(listener);
}

/**
 * The current time (ms since the epoch), the same for every caller, brought up to date every 30 s
 * by one timer shared by all of them (started by the first). 0 on the server and during hydration,
 * so output that depends on it renders after mount without a hydration mismatch.
 *
 * Deferred: a store's change re-renders its callers at once, in one task, and right after
 * hydration that is every time on the page (20 rows: ~45 ms on a slow phone). The deferred value
 * lets that task find nothing to change and renders the new times in an interruptible pass. A
 * caller mounted later gets the time at once.
 */
export function useNow(): number {
  const current = useSyncExternalStore(
    subscribe,
    () => (now ||= Date.now()),
    () => 0,
  );
  return useDeferredValue(current);
}
