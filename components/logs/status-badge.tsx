import type { LogStatus } from "@/lib/domain/api-limits";

const styles: Record<LogStatus, string> = { Success: "badge-success", Failed: "badge-failed" };

export function StatusBadge({ status }: { status: LogStatus }) {
  return (
    <span className={`badge ${styles[status] ?? ""}`}>
      <span aria-hidden="true">{status === "Success" ? "✓" : "✕"}</span>
      {status}
    </span>
  );
}
