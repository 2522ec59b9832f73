"use client";

import dynamic from "next/dynamic";
import { useFirstOpen } from "@/lib/browser/use-first-open";
import type { LogViewState } from "@/lib/domain/search-params";
import { PartBoundary, PartUnavailable } from "@/components/ui/part-boundary";
import { HISTORY_FILTERS_ID } from "@/components/shortcuts/page-keys";

const loading = <p className="text-sm">Loading the filters…</p>;

/** Filters over the whole history and Export: their own chunk, loaded when their section is first opened. */
const HistoryTools = dynamic(() => import("@/components/history/history-tools"), {
  ssr: false,
  loading: () => loading,
});

/**
 * "Filter the whole history", a section open while the view has history filters. Its form renders
 * once the section is first opened (two date inputs cost a long task on a slow phone), and stays,
 * so closing it keeps what was typed.
 */
export function HistoryFilters({
  webhookId,
  view,
  filters,
  open,
}: {
  webhookId: string;
  view: LogViewState;
  /** The view's filters as one text: the form is filled from them, again when they change. */
  filters: string;
  open: boolean;
}) {
  const { opened, details } = useFirstOpen(open);
  return (
    <details
      {...details}
      id={HISTORY_FILTERS_ID}
      className="card px-3 py-2 lg:open:col-span-full"
      open={open || undefined}
    >
      <summary className="cursor-pointer text-sm font-medium" aria-keyshortcuts="f">
        Filter the whole history (HTTP status, time, response text) and export
      </summary>
      <div className="mt-3">
        {opened || open ? (
          <PartBoundary fallback={<PartUnavailable what="history filters" />}>
            <HistoryTools key={filters} webhookId={webhookId} view={view} />
          </PartBoundary>
        ) : (
          loading
        )}
      </div>
    </details>
  );
}
