import { startTransition, useEffect, useState } from "react";

/**
 * False until the page has loaded and the browser is idle (at most `timeoutMs` after mount):
 * what renders behind it, and the chunks it imports, wait until the rows are on screen and
 * interactive.
 */
export function useAfterLoad(timeoutMs = 2000): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    // A transition: what renders behind it renders in slices, not one long task.
    const ready = () => startTransition(() => setReady(true));
    if (typeof window.requestIdleCallback !== "function") {
      const timer = window.setTimeout(ready, 200);
      return () => window.clearTimeout(timer);
    }
    const start = () => window.requestIdleCallback(ready, { timeout: timeoutMs });
    let idle: number | undefined;
    if (document.readyState === "complete") idle = start();
    const onLoad = () => (idle = start());
    window.addEventListener("load", onLoad, { once: true });
    return () => {
      window.removeEventListener("load", onLoad);
      if (idle !== undefined) window.cancelIdleCallback(idle);
    };
  }, [timeoutMs]);
  return ready;
}
