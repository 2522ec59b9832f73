"use client";

import type { Table } from "@tanstack/react-table";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { formatCount } from "@/lib/domain/format-count";

/**
 * First/previous/next/last page (on a phone, arrows only: `.log-pager` in app/globals.css) and
 * where you are. The table's state is the URL's (manualPagination).
 */
export function LogsPagination({ table, total }: { table: Table<WebhookLog>; total: number }) {
  const { pageIndex, pageSize } = table.getState().pagination;
  const pageCount = Math.max(1, table.getPageCount());
  const page = pageIndex + 1;
  const first = total === 0 ? 0 : Math.min(pageIndex * pageSize + 1, total);
  const last = Math.min((pageIndex + 1) * pageSize, total);

  return (
    <nav
      aria-label="Log pages"
      className="log-pager flex flex-wrap items-center justify-between gap-3 text-sm"
    >
      <p className="text-zinc-700 dark:text-zinc-300">
        {total === 0 ? "No deliveries" : `Showing ${first}–${last} of ${formatCount(total)} deliveries`}
      </p>
      <div className="flex items-center gap-1.5">
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => table.firstPage()}
          disabled={!table.getCanPreviousPage()}
        >
          <span aria-hidden="true">«</span> First page
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => table.previousPage()}
          disabled={!table.getCanPreviousPage()}
        >
          <span aria-hidden="true">‹</span> Previous page
        </button>
        <span className="px-2 whitespace-nowrap tabular-nums" aria-live="polite">
          Page {page} of {pageCount}
        </span>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => table.nextPage()}
          disabled={!table.getCanNextPage()}
        >
          Next page <span aria-hidden="true">›</span>
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => table.lastPage()}
          disabled={!table.getCanNextPage()}
        >
          Last page <span aria-hidden="true">»</span>
        </button>
      </div>
    </nav>
  );
}
