import { useEffect, useEffectEvent, useState } from "react";
import { AUTO_REFRESH_MS } from "@/lib/domain/query-keys";
import { onUnauthorized } from "@/lib/browser/unauthorized";

export interface PollFailure {
  error: Error;
  /** Date.now() when it failed. */
  at: number;
}

/**
 * While `on`, calls `poll` every AUTO_REFRESH_MS, except while the tab is hidden, and never two at
 * once. Returns the last poll's failure (when it happened), cleared by the next success or a new
 * `key` (what is being polled).
 */
export function useAutoRefresh(
  on: boolean,
  key: string,
  poll: (signal: AbortSignal) => Promise<unknown>,
): PollFailure | null {
  const [failed, setFailed] = useState<(PollFailure & { key: string }) | null>(null);
  const tick = useEffectEvent((signal: AbortSignal) => poll(signal));

  useEffect(() => {
    if (!on) return;
    const controller = new AbortController();
    let inFlight = false;
    const timer = window.setInterval(() => {
      if (inFlight || document.visibilityState === "hidden") return;
      inFlight = true;
      tick(controller.signal)
        .then(
          () => setFailed(null),
          (error: unknown) => {
            if (controller.signal.aborted) return;
            onUnauthorized(error);
            const failure = error instanceof Error ? error : new Error(String(error));
            setFailed({ key, error: failure, at: Date.now() });
          },
        )
        .finally(() => (inFlight = false));
    }, AUTO_REFRESH_MS);
    return () => {
      window.clearInterval(timer);
      controller.abort();
    };
  }, [on, key]);

  return on && failed?.key === key ? failed : null;
}
