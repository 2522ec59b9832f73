"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useScan } from "@/lib/browser/use-scan";
import { ScanProgress } from "@/components/history/scan-progress";
import { Notice } from "@/components/ui/notice";

/**
 * A question the console's copy cannot answer yet: it must first read older pages of the hub.
 * Reads them through the question's own route (`path`, streamed NDJSON) with progress and Cancel,
 * then asks the server for the page again, which answers from the copy at once. What was read
 * stays in the copy, whether the reading ends, is cancelled or fails.
 */
export function CopyReading({ path, what }: { path: string; what: string }) {
  const router = useRouter();
  const scan = useScan(path);
  const result = scan.status === "done" ? scan.result : null;
  const failed = result?.partial?.reason === "failed" ? result.partial : null;

  useEffect(() => {
    if (result && !failed) router.refresh();
  }, [result, failed, router]);

  const problem =
    scan.status === "failed"
      ? { tone: "error" as const, title: `${what} could not be read`, message: scan.error.message }
      : failed && { tone: "warning" as const, title: "Partial result", message: failed.message };
  if (problem) {
    return (
      <Notice tone={problem.tone} role="alert" title={problem.title}>
        <p>{problem.message}</p>
        <button type="button" className="btn btn-secondary" onClick={scan.rerun}>
          Try again
        </button>
      </Notice>
    );
  }
  if (scan.status === "cancelled") {
    return (
      <p role="status" className="text-sm">
        Cancelled: what was read so far is kept.{" "}
        <button type="button" className="btn-link" onClick={scan.rerun}>
          Read again
        </button>
      </p>
    );
  }
  return (
    <div className="space-y-1 text-sm">
      <p>
        {what}: the console&apos;s copy does not reach that far yet, so older deliveries are read from the
        hub.
      </p>
      <ScanProgress progress={scan.status === "running" ? scan.progress : null} onCancel={scan.cancel} />
    </div>
  );
}
