import type { ScanState } from "@/lib/browser/use-scan";
import type { ScanResultLine } from "@/lib/domain/scan-answer";
import { useLogView } from "@/components/logs/use-log-view";
import { HistorySourceLine } from "@/components/history/history-source";
import { ScanProgress } from "@/components/history/scan-progress";
import { Notice } from "@/components/ui/notice";
import { formatCount as n } from "@/lib/domain/format-count";

/**
 * What the filtered table covers: "37 matches in 6,000 deliveries read" and what the console's
 * copy holds, the progress and Cancel while older deliveries are copied, and what to do when the
 * result is partial or the reading failed.
 */
export function HistoryCoverage({
  scan,
  result,
  onRerun,
  onCancel,
}: {
  scan: ScanState;
  result: ScanResultLine | null;
  onRerun: () => void;
  onCancel: () => void;
}) {
  const [, setView] = useLogView();
  return (
    <div className="space-y-2 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        {result ? (
          <p>
            <strong>
              {n(result.matches)} {result.matches === 1 ? "match" : "matches"}
            </strong>{" "}
            in {n(result.read)} {result.read === 1 ? "delivery" : "deliveries"} read
            {result.read < result.total ? ` (of ${n(result.total)})` : ""}
            {result.arrivedMeanwhile > 0
              ? `; ${n(result.arrivedMeanwhile)} arrived while reading (Refresh to include them)`
              : ""}
            .
          </p>
        ) : null}
        {result ? <HistorySourceLine source={result.source} /> : null}
        {scan.status === "running" ? <ScanProgress progress={scan.progress} onCancel={onCancel} /> : null}
        {scan.status === "cancelled" ? (
          <p role="status">
            Scan cancelled{result ? ": the rows are from the last finished scan" : ""}.{" "}
            <button type="button" className="btn-link" onClick={onRerun}>
              Scan again
            </button>
          </p>
        ) : null}
      </div>
      {scan.status === "failed" && result ? (
        <Notice tone="error" role="alert" title="The scan failed">
          <p>{scan.error.message} The rows below are from the last finished scan.</p>
          <button type="button" className="btn btn-secondary" onClick={onRerun}>
            Try again
          </button>
        </Notice>
      ) : null}
      {scan.status === "done" && result?.partial ? (
        <Notice tone="warning" title="Partial result">
          <p>{result.partial.message}</p>
          {result.partial.reason === "cap" ? (
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => void setView({ cap: result.cap * 2, page: null, log: null })}
            >
              Scan further ({n(result.cap * 2)} deliveries)
            </button>
          ) : (
            <button type="button" className="btn btn-secondary" onClick={onRerun}>
              Try again
            </button>
          )}
        </Notice>
      ) : null}
    </div>
  );
}
