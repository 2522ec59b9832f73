"use client";

import { flexRender, type Cell, type Table } from "@tanstack/react-table";
import { memo, type MouseEvent, type ReactNode } from "react";
import type { WebhookLog } from "@/lib/domain/hub-schemas";

/** The Response column takes the width left over (at least 8rem) and truncates; the others keep to one line. */
function columnClass(columnId: string): string {
  return columnId === "responseBody" ? "w-full min-w-32 max-w-0" : "whitespace-nowrap";
}

/**
 * The log table. A click anywhere on a row opens its details (the row's "Details" button is the
 * keyboard way to the same). Rows of the last test message's deliveries are highlighted. On a
 * phone each row is a card, its cells labelled by `data-label` (`.log-table` in app/globals.css).
 */
export function LogsDataTable({
  table,
  onOpen,
  highlightIds,
  busy,
  emptyState,
}: {
  table: Table<WebhookLog>;
  onOpen: (logId: string) => void;
  highlightIds: ReadonlySet<string>;
  busy: boolean;
  /** Shown in the body when there are no rows. */
  emptyState: ReactNode;
}) {
  const rows = table.getRowModel().rows;
  const columnCount = table.getVisibleLeafColumns().length;

  return (
    // `#deliveries`: where the phone's "Skip to deliveries" link lands.
    <div id="deliveries" className="card scroll-mt-2 overflow-x-auto">
      {/* Its caption names it (no aria-describedby to the same text: it would be read twice). */}
      <table className="log-table w-full border-collapse text-left text-sm" aria-busy={busy}>
        <caption className="sr-only">
          Delivery logs, newest first. Open a row for its response body and what its status means.
        </caption>
        <thead className="border-b border-zinc-200 bg-zinc-100/80 text-xs font-semibold text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col" className={`px-3 py-2 ${columnClass(header.column.id)}`}>
                  {header.isPlaceholder
                    ? null
                    : flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody
          className={`divide-y divide-zinc-200 dark:divide-zinc-800 ${busy ? "opacity-70 transition-opacity" : ""}`}
        >
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columnCount} className="px-3 py-8 text-center">
                {emptyState}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <LogRow
                key={row.id}
                log={row.original}
                cells={row.getVisibleCells()}
                highlighted={highlightIds.has(row.original.id)}
                onOpen={onOpen}
              />
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * One log's row. Memoized: TanStack Table keeps a row's cells (the same array) until the data or
 * the columns change, so a view change that keeps the current rows on screen while the next ones
 * load (a filter, the page size, the busy state) does not re-render them.
 */
const LogRow = memo(function LogRow({
  log,
  cells,
  highlighted,
  onOpen,
}: {
  log: WebhookLog;
  cells: Cell<WebhookLog, unknown>[];
  highlighted: boolean;
  onOpen: (logId: string) => void;
}) {
  const logId = log.id;
  function onClick(event: MouseEvent<HTMLTableRowElement>) {
    // Buttons and links in the row act for themselves; selecting text is not a click.
    if ((event.target as HTMLElement).closest("button, a")) return;
    if (window.getSelection()?.toString()) return;
    onOpen(logId);
  }
  return (
    <tr
      data-log-id={logId}
      // Styled in app/globals.css (tint, ring, arrival animation), not with classes here.
      data-highlighted={highlighted || undefined}
      onClick={onClick}
      className="cursor-pointer align-middle hover:bg-zinc-50 dark:hover:bg-zinc-800/60"
    >
      {cells.map((cell) => (
        <td
          key={cell.id}
          data-label={
            typeof cell.column.columnDef.header === "string" ? cell.column.columnDef.header : undefined
          }
          className={`px-3 py-1.5 ${columnClass(cell.column.id)}`}
        >
          {flexRender(cell.column.columnDef.cell, cell.getContext())}
        </td>
      ))}
    </tr>
  );
});
