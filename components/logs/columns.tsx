"use client";

import { createColumnHelper } from "@tanstack/react-table";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { previewBody } from "@/lib/domain/format-body";
import { reasonPhrase, statusCodeLabel } from "@/lib/domain/reason-phrase";
import { LocalTime } from "@/components/ui/local-time";
import { StatusBadge } from "@/components/logs/status-badge";

const column = createColumnHelper<WebhookLog>();

interface ColumnActions {
  /** Opens the details dialog of a log. */
  onOpen: (logId: string) => void;
  /** Id of the element that says why Retry is unavailable. */
  retryReasonId: string;
}

/** The log table's columns, plus the row actions. */
export function buildLogColumns({ onOpen, retryReasonId }: ColumnActions) {
  return [
    column.accessor("status", {
      header: "Status",
      cell: (info) => <StatusBadge status={info.getValue()} />,
    }),
    column.accessor("statusCode", {
      header: "HTTP status",
      cell: (info) => {
        const code = info.getValue();
        return (
          <span className="font-mono text-xs whitespace-nowrap" title={reasonPhrase(code) ?? undefined}>
            {statusCodeLabel(code)}
          </span>
        );
      },
    }),
    column.accessor("sendAt", {
      header: "Sent at",
      cell: (info) => (
        <LocalTime iso={info.getValue()} form="relative" className="text-xs whitespace-nowrap tabular-nums" />
      ),
    }),
    column.accessor("messageId", {
      header: "Message ID",
      cell: (info) => {
        const messageId = info.getValue();
        return messageId ? (
          <span className="font-mono text-xs whitespace-nowrap">{messageId}</span>
        ) : (
          <span className="text-xs text-zinc-600 dark:text-zinc-400">none</span>
        );
      },
    }),
    column.accessor("responseBody", {
      header: "Response",
      cell: (info) => {
        const preview = previewBody(info.getValue());
        return preview ? (
          <span className="block truncate font-mono text-xs">{preview}</span>
        ) : (
          <span className="text-xs text-zinc-600 dark:text-zinc-400">empty</span>
        );
      },
    }),
    column.display({
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row }) => (
        <div className="flex justify-end gap-1.5">
          <button
            type="button"
            className="btn btn-small"
            data-details-for={row.original.id}
            onClick={() => onOpen(row.original.id)}
          >
            Details<span className="sr-only"> of the delivery sent at {row.original.sendAt}</span>
          </button>
          {row.original.status === "Failed" ? (
            <button type="button" className="btn btn-small" disabled aria-describedby={retryReasonId}>
              Retry
            </button>
          ) : null}
        </div>
      ),
    }),
  ];
}
