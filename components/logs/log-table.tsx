import type { ReactNode } from "react";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { previewBody } from "@/lib/domain/format-body";
import { reasonPhrase, statusCodeLabel } from "@/lib/domain/reason-phrase";
import { Moment } from "@/components/ui/moment";
import { LogRowsBody } from "@/components/logs/log-rows-body";
import { StatusBadge } from "@/components/logs/status-badge";
import { RETRY_UNAVAILABLE_REASON } from "@/components/logs/retry-unavailable";

const COLUMNS = ["Status", "HTTP status", "Sent at", "Message ID", "Response"] as const;
/** The columns, and the row's actions after them. */
export const COLUMN_COUNT = COLUMNS.length + 1;
const RETRY_REASON_ID = "retry-unavailable";
const MUTED = "text-xs text-zinc-600 dark:text-zinc-400";

/** The head's cells as the rows' (`.log-table` in app/globals.css). */
function cellClass(column: string): string {
  return column === "Response" ? "w-full min-w-32 max-w-0" : "whitespace-nowrap";
}

/**
 * The log table, a plain `<table>` rendered on the server: its head, and `children`, its body
 * (LogRows, or what shows while they load). On a phone each row is a card, its cells labelled by
 * `data-label` (`.log-table` in app/globals.css).
 */
export function LogTable({ children }: { children: ReactNode }) {
  return (
    // `#deliveries`: where the phone's "Skip to deliveries" link lands.
    <div id="deliveries" className="card scroll-mt-2 overflow-x-auto">
      <p id={RETRY_REASON_ID} className="sr-only">
        {RETRY_UNAVAILABLE_REASON}.
      </p>
      {/* Its caption names it (no aria-describedby to the same text: it would be read twice). */}
      <table className="log-table w-full border-collapse text-left text-sm">
        <caption className="sr-only">
          Delivery logs, newest first. Open a row for its response body and what its status means.
        </caption>
        <thead className="border-b border-zinc-200 bg-zinc-100/80 text-xs font-semibold text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300">
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className={`px-3 py-2 ${cellClass(column)}`}>
                {column}
              </th>
            ))}
            <th scope="col" className="px-3 py-2">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        {children}
      </table>
    </div>
  );
}

/** The table's body: one row per delivery, newest first, or `empty` (what the view says when it has none). */
export function LogRows({
  rows,
  openHref,
  empty,
}: {
  rows: WebhookLog[];
  /** The page with a delivery's details open. */
  openHref: (logId: string) => string;
  empty: ReactNode;
}) {
  if (rows.length === 0) return <LogTableMessage>{empty}</LogTableMessage>;
  return (
    <LogRowsBody>
      {rows.map((log) => (
        <Row key={log.id} log={log} openHref={openHref(log.id)} />
      ))}
    </LogRowsBody>
  );
}

/** A body of one message in place of the rows: while they load (`busy`), or why there are none. */
export function LogTableMessage({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <tbody aria-busy={busy || undefined}>
      <tr>
        <td colSpan={COLUMN_COUNT} className="px-3 py-8 text-center">
          {children}
        </td>
      </tr>
    </tbody>
  );
}

/**
 * One delivery's row, plain elements styled by `.log-table` (app/globals.css): what it does in the
 * browser (open, highlight, local time) is LogRowsBody's.
 */
function Row({ log, openHref }: { log: WebhookLog; openHref: string }) {
  const preview = previewBody(log.responseBody);
  return (
    <tr data-log-id={log.id}>
      <td data-label="Status">
        <StatusBadge status={log.status} />
      </td>
      <td
        data-label="HTTP status"
        className="font-mono text-xs"
        title={reasonPhrase(log.statusCode) ?? undefined}
      >
        {statusCodeLabel(log.statusCode)}
      </td>
      <td data-label="Sent at" className="text-xs tabular-nums">
        <Moment iso={log.sendAt} form="relative" now={0} />
      </td>
      <td data-label="Message ID" className={log.messageId ? "font-mono text-xs" : MUTED}>
        {log.messageId || "none"}
      </td>
      <td data-label="Response">
        {preview ? (
          <span className="block truncate font-mono text-xs">{preview}</span>
        ) : (
          <span className={MUTED}>empty</span>
        )}
      </td>
      <td>
        <div className="flex justify-end gap-1.5">
          <a href={openHref} className="btn btn-small" data-details-for={log.id}>
            Details<span className="sr-only"> of the delivery sent at {log.sendAt}</span>
          </a>
          {log.status === "Failed" ? (
            <button type="button" className="btn btn-small" disabled aria-describedby={RETRY_REASON_ID}>
              Retry
            </button>
          ) : null}
        </div>
      </td>
    </tr>
  );
}
