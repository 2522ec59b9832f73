"use client";

import { useMutation } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { apiFetch, isApiError } from "@/lib/browser/api";
import { onUnauthorized } from "@/lib/browser/unauthorized";
import { saveFile } from "@/lib/browser/save-file";
import {
  historySourceText,
  sourceInHeader,
  HISTORY_SOURCE_HEADER,
  type HistorySource,
} from "@/lib/domain/history/answer-source";
import { historyExportPath } from "@/lib/domain/log-view";
import type { LogViewState } from "@/lib/domain/search-params";
import { QueryProvider } from "@/components/ui/query-provider";

type Format = "csv" | "json";
const LABELS: Record<Format, string> = { csv: "Export CSV", json: "Export JSON" };

interface Saved {
  fileName: string;
  forCustomer: boolean;
  /** What the console's copy covered; null when the answer named none. */
  source: HistorySource | null;
}

/** Export with the query client its mutation goes through (in the history tools' chunk: see QueryProvider). */
export function ExportButtons(props: { webhookId: string; view: LogViewState }) {
  return (
    <QueryProvider>
      <Exports {...props} />
    </QueryProvider>
  );
}

/**
 * Export CSV / Export JSON of the view's matches, read by the page and then saved, so a refusal or
 * a failure midway is said by the button's name instead of leaving a broken download behind.
 */
function Exports({ webhookId, view }: { webhookId: string; view: LogViewState }) {
  const controller = useRef<AbortController | null>(null);
  const customerId = useId();
  const [forCustomer, setForCustomer] = useState(false);
  const exporting = useMutation({
    mutationFn: async (format: Format): Promise<Saved> => {
      const abort = (controller.current = new AbortController());
      const response = await apiFetch(historyExportPath(webhookId, view, format, forCustomer), {
        signal: abort.signal,
      });
      const blob = await response.blob();
      const fileName =
        response.headers.get("content-disposition")?.match(/filename="([^"]+)"/)?.[1] ?? `export.${format}`;
      saveFile(blob, fileName);
      return {
        fileName,
        forCustomer,
        source: sourceInHeader(response.headers.get(HISTORY_SOURCE_HEADER)),
      };
    },
    onError: onUnauthorized,
  });
  const format = exporting.variables;

  return (
    <div className="ml-auto flex flex-wrap items-center justify-end gap-2">
      <label htmlFor={customerId} className="flex items-center gap-1.5 text-sm">
        <input
          id={customerId}
          type="checkbox"
          checked={forCustomer}
          disabled={exporting.isPending}
          onChange={(event) => setForCustomer(event.target.checked)}
        />
        For a customer (redacted)
      </label>
      {(["csv", "json"] as const).map((one) => (
        <button
          key={one}
          type="button"
          className="btn btn-secondary"
          disabled={exporting.isPending}
          onClick={() => exporting.mutate(one)}
        >
          {exporting.isPending && format === one ? "Exporting…" : LABELS[one]}
        </button>
      ))}
      {exporting.isPending ? (
        <button type="button" className="btn btn-secondary" onClick={() => controller.current?.abort()}>
          Cancel export
        </button>
      ) : null}
      <p role="status" className="w-full text-right text-sm empty:hidden">
        {exporting.isSuccess ? savedText(exporting.data) : null}
        {exporting.isError && format ? (
          <span className="text-red-800 dark:text-red-300">
            {failureText(LABELS[format], exporting.error)}
          </span>
        ) : null}
      </p>
    </div>
  );
}

function savedText({ fileName, forCustomer, source }: Saved): string {
  const parts = [
    forCustomer ? "redacted for a customer" : null,
    source ? historySourceText(source, Date.now()) : null,
  ];
  const said = parts.filter(Boolean).join(", ");
  return said ? `Saved ${fileName} (${said}).` : `Saved ${fileName}.`;
}

function failureText(label: string, error: unknown): string {
  if (error instanceof DOMException && error.name === "AbortError")
    return `${label}: cancelled; nothing was saved.`;
  if (isApiError(error)) return `${label}: ${error.message}`;
  // The body broke off: the database failed after the first rows were sent.
  return `${label}: the export stopped before its end, and nothing was saved. Try again.`;
}
