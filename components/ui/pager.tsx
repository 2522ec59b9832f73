import type { ReactNode } from "react";
import { formatCount } from "@/lib/domain/format-count";

/**
 * First/previous/next/last page and where you are (on a phone, arrows only: `.pager` in
 * app/globals.css). `page` counts from 1; `onPage` is handed the page a button asks for.
 */
export function Pager({
  label,
  page,
  pageSize,
  total,
  noun,
  onPage,
}: {
  /** The navigation landmark's name, e.g. "Log pages". */
  label: string;
  page: number;
  pageSize: number;
  total: number;
  /** What is counted, in the plural: "Showing 1–20 of 312 deliveries". */
  noun: string;
  onPage: (page: number) => void;
}) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, total);
  const where =
    total === 0
      ? `No ${noun}`
      : first > total
        ? `Past the last page: ${formatCount(total)} ${noun} in all`
        : `Showing ${first}–${last} of ${formatCount(total)} ${noun}`;
  return (
    <nav aria-label={label} className="pager flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-zinc-700 dark:text-zinc-300">{where}</p>
      <div className="flex items-center gap-1.5">
        <PageButton to={1} disabled={page <= 1} onPage={onPage}>
          <span aria-hidden="true">«</span> First page
        </PageButton>
        {/* Past the end, the page before is the last one. */}
        <PageButton to={Math.min(page - 1, pageCount)} disabled={page <= 1} onPage={onPage}>
          <span aria-hidden="true">‹</span> Previous page
        </PageButton>
        <span className="px-2 whitespace-nowrap tabular-nums" aria-live="polite">
          Page {page} of {pageCount}
        </span>
        <PageButton to={page + 1} disabled={page >= pageCount} onPage={onPage}>
          Next page <span aria-hidden="true">›</span>
        </PageButton>
        <PageButton to={pageCount} disabled={page === pageCount} onPage={onPage}>
          Last page <span aria-hidden="true">»</span>
        </PageButton>
      </div>
    </nav>
  );
}

function PageButton({
  to,
  disabled,
  onPage,
  children,
}: {
  to: number;
  disabled: boolean;
  onPage: (page: number) => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className="btn btn-secondary" onClick={() => onPage(to)} disabled={disabled}>
      {children}
    </button>
  );
}
