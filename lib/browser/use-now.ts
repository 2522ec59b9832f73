import { useSyncExternalStore } from "react";

/** How often relative times ("4 min ago") are brought up to date. */
const TICK_MS = 30_000;

let now = 0;
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    now = Date.now();
    for (const notify of listeners) notify();
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    clearInterval(timer);
    timer = undefined;
    now = 0; // the next subscriber starts from a fresh reading
  };
}

/**
 * The current time (ms since the epoch), the same for every caller and updated every 30 s by one
 * timer shared by all of them (running only while one is mounted). 0 on the server and during
 * hydration, so output that depends on it renders after mount without a hydration mismatch.
 */
export function useNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => (now ||= Date.now()),
    () => 0,
  );
}
