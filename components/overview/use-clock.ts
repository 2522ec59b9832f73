import { useEffect, useState } from "react";

/**
 * The time (ms since the epoch), brought up to date every `everyMs`; 0 on the server and during
 * hydration, so "12 s ago" renders after mount without a mismatch.
 */
export function useClock(everyMs: number): number {
  const [now, setNow] = useState(0);
  useEffect(() => {
    const tick = () => setNow(Date.now());
    const first = window.setTimeout(tick, 0);
    const timer = window.setInterval(tick, everyMs);
    return () => {
      window.clearTimeout(first);
      window.clearInterval(timer);
    };
  }, [everyMs]);
  return now;
}
