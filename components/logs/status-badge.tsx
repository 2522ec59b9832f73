import type { LogStatus } from "@/lib/domain/api-limits";

const styles: Record<LogStatus, string> = {
  Success:
    "bg-emerald-100 text-emerald-900 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-800",
  Failed: "bg-red-100 text-red-900 ring-red-300 dark:bg-red-950 dark:text-red-200 dark:ring-red-800",
};

export function StatusBadge({ status }: { status: LogStatus }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${styles[status] ?? ""}`}
    >
      <span aria-hidden="true">{status === "Success" ? "✓" : "✕"}</span>
      {status}
    </span>
  );
}
