import { useSyncExternalStore } from "react";

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
 */
export function useNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => (now ||= Date.now()),
    () => 0,
  );
}
