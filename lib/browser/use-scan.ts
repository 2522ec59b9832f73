import { startTransition, useCallback, useEffect, useRef, useState } from "react";
import { onUnauthorized } from "@/lib/browser/unauthorized";
import type { ScanProgressLine, ScanResultLine } from "@/lib/domain/scan-answer";

export type ScanState =
  | { status: "idle" }
  | { status: "running"; progress: ScanProgressLine | null; previous: ScanResultLine | null }
  | { status: "done"; result: ScanResultLine }
  | { status: "cancelled"; previous: ScanResultLine | null }
  | { status: "failed"; error: Error; previous: ScanResultLine | null };

/**
 * The scan `path` names (null: none), run when the path changes, with its progress. `cancel()`
 * aborts the request, which stops the scan's upstream calls; `rerun()` asks again. Leaving the
 * page or asking another question aborts the scan in flight too.
 */
export function useScan(path: string | null): ScanState & { cancel: () => void; rerun: () => void } {
  const [state, setState] = useState<ScanState>({ status: "idle" });
  const [round, setRound] = useState(0);
  const controller = useRef<AbortController | null>(null);
  const last = useRef<ScanResultLine | null>(null);

  useEffect(() => {
    if (!path) return;
    const abort = new AbortController();
    controller.current = abort;
    const previous = last.current;
    setState({ status: "running", progress: null, previous });
    // The stream reader is its own chunk: pages that never scan do not load it.
    import("@/lib/browser/scan-stream")
      .then(({ runScan }) =>
        runScan(path, {
          signal: abort.signal,
          onProgress: (progress) => setState({ status: "running", progress, previous }),
        }),
      )
      .then(
        (result) => {
          last.current = result;
          // A transition: what shows the result (a chart, many rows) renders in slices, not one long task.
          startTransition(() => setState({ status: "done", result }));
        },
        (error: unknown) => {
          if (abort.signal.aborted) return;
          onUnauthorized(error);
          setState({
            status: "failed",
            error: error instanceof Error ? error : new Error(String(error)),
            previous,
          });
        },
      );
    return () => abort.abort();
  }, [path, round]);

  const cancel = useCallback(() => {
    controller.current?.abort();
    setState((current) =>
      current.status === "running" ? { status: "cancelled", previous: current.previous } : current,
    );
  }, []);
  const rerun = useCallback(() => setRound((n) => n + 1), []);

  return { ...(path ? state : { status: "idle" }), cancel, rerun };
}
