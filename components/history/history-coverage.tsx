import Link from "next/link";
import type { ReactNode } from "react";
import type { ScanResultLine } from "@/lib/domain/scan-answer";
import { formatCount as n } from "@/lib/domain/format-count";
import { HistorySourceLine } from "@/components/history/history-source";
import { Notice } from "@/components/ui/notice";

/**
 * What the filtered table covers: "37 matches in 6,000 deliveries read" and what the console's
 * copy holds; a partial answer says why, with Scan further (a larger cap, `scanFurtherHref`) or
 * Try again (`retry`).
 */
export function HistoryCoverage({
  result,
  scanFurtherHref,
  retry,
}: {
  result: ScanResultLine;
  /** The view reading twice as many deliveries; null past the largest cap. */
  scanFurtherHref: string | null;
  retry: ReactNode;
}) {
  return (
    <div className="space-y-2 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
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
        <HistorySourceLine source={result.source} />
      </div>
      {result.partial ? (
        <Notice tone="warning" title="Partial result">
          <p>{result.partial.message}</p>
          {result.partial.reason === "cap" && scanFurtherHref ? (
            <Link href={scanFurtherHref} prefetch={false} scroll={false} className="btn btn-secondary">
              Scan further ({n(result.cap * 2)} deliveries)
            </Link>
          ) : result.partial.reason === "failed" ? (
            retry
          ) : null}
        </Notice>
      ) : null}
    </div>
  );
}
