"use client";

import { useId } from "react";
import {
  LOG_STATUS_FILTERS,
  PAGE_SIZES,
  type LogStatusFilter,
  type LogViewState,
  type PageSize,
} from "@/lib/domain/search-params";
import { AUTO_REFRESH_MS } from "@/lib/domain/query-keys";

/** Filter, page size, live refresh. */
export function LogsToolbar({
  view,
  onStatusChange,
  onStatusIntent,
  onPageSizeChange,
  autoRefresh,
  onAutoRefreshChange,
  onRefresh,
  fetching,
}: {
  view: LogViewState;
  onStatusChange: (status: LogStatusFilter | null) => void;
  /** The pointer or focus reached the Status filter: another status may be chosen next. */
  onStatusIntent: () => void;
  onPageSizeChange: (size: PageSize) => void;
  autoRefresh: boolean;
  onAutoRefreshChange: (on: boolean) => void;
  onRefresh: () => void;
  fetching: boolean;
}) {
  const id = useId();
  return (
    <div className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm">
      <LabelledSelect
        id={`${id}-status`}
        label="Status"
        value={view.status ?? ""}
        options={[
          { value: "", label: "All" },
          ...LOG_STATUS_FILTERS.map((status) => ({ value: status, label: status })),
        ]}
        onChange={(value) => onStatusChange((value || null) as LogStatusFilter | null)}
        onIntent={onStatusIntent}
      />
      <LabelledSelect
        id={`${id}-size`}
        label="Rows per page"
        value={String(view.limit)}
        options={PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
        onChange={(value) => onPageSizeChange(Number(value) as PageSize)}
      />
      <div className="flex items-center gap-2">
        <input
          id={`${id}-auto`}
          type="checkbox"
          role="switch"
          className="size-4 accent-blue-700 dark:accent-blue-400"
          checked={autoRefresh}
          onChange={(event) => onAutoRefreshChange(event.target.checked)}
          aria-describedby={`${id}-auto-hint`}
        />
        <label htmlFor={`${id}-auto`} className="font-medium">
          Auto-refresh
        </label>
        <span id={`${id}-auto-hint`} className="sr-only">
          Reloads this page of logs every {AUTO_REFRESH_MS / 1000} seconds while the tab is visible.
        </span>
      </div>
      <div className="ml-auto flex items-center gap-2">
        <span className="text-xs text-zinc-600 dark:text-zinc-400" aria-hidden={!fetching}>
          {fetching ? "Updating…" : ""}
        </span>
        <button type="button" className="btn btn-secondary" onClick={onRefresh}>
          Refresh
        </button>
      </div>
    </div>
  );
}

function LabelledSelect({
  id,
  label,
  value,
  options,
  onChange,
  onIntent,
}: {
  id: string;
  label: string;
  value: string;
  options: Array<{ value: string; label: string }>;
  onChange: (value: string) => void;
  onIntent?: () => void;
}) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <select
        id={id}
        className="field-select"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onPointerEnter={onIntent}
        onFocus={onIntent}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
