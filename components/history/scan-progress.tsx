import type { ScanProgressLine } from "@/lib/domain/scan-answer";
import { formatCount } from "@/lib/domain/format-count";

/** "Reading 1,200 of 6,000 deliveries…" with a Cancel button, while the copy reads the hub. */
export function ScanProgress({
  progress,
  onCancel,
}: {
  progress: ScanProgressLine | null;
  onCancel: () => void;
}) {
  const of = progress ? Math.min(progress.total, progress.cap) : 0;
  return (
    <span className="inline-flex flex-wrap items-center gap-2 text-xs" role="status">
      <span>
        {progress
          ? `Reading ${formatCount(progress.read)} of ${formatCount(of)} deliveries…`
          : "Reading deliveries…"}
      </span>
      {progress ? (
        <progress max={of || 1} value={progress.read} aria-hidden="true" className="h-1.5 w-24" />
      ) : null}
      <button type="button" className="btn btn-small" onClick={onCancel}>
        Cancel
      </button>
    </span>
  );
}
