"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition, type ReactNode } from "react";
import { useAutoRefresh } from "@/lib/browser/use-auto-refresh";
import { AUTO_REFRESH_MS } from "@/lib/domain/query-keys";
import { prefetchView } from "@/components/logs/prefetch-view";

/** A choice of the view and the page it leads to. */
export interface ViewChoice {
  value: string;
  label: string;
  href: string;
}

/**
 * The log table's heading, then Status, rows per page, Auto-refresh, Refresh and the page's keys,
 * in one row above the table. A choice navigates to its
 * view (the URL is the state); the rows come from the server, prefetched once a person reaches
 * for the control (pointer down or focus), so that the choice answers from the router's cache. Auto-refresh asks the server for
 * the page again every AUTO_REFRESH_MS while the tab is visible, through `refreshPage` (a Server
 * Action: the page rendered in its answer may share one hub read among its viewers).
 */
export function LogsToolbar({
  heading,
  keys,
  status,
  statuses,
  limit,
  limits,
  refreshPage,
}: {
  heading: ReactNode;
  /** The page's keyboard keys (their list's button). */
  keys: ReactNode;
  status: string;
  statuses: ViewChoice[];
  limit: string;
  limits: ViewChoice[];
  refreshPage: () => Promise<void>;
}) {
  const id = useId();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [autoRefresh, setAutoRefresh] = useState(false);
  const failure = useAutoRefresh(autoRefresh, "page", () => refreshPage());
  const go = (href: string) => startTransition(() => router.push(href, { scroll: false }));
  const prefetch = (choices: ViewChoice[], value: string) => {
    for (const choice of choices) if (choice.value !== value) prefetchView(router, choice.href);
  };

  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm sm:gap-x-5">
      {heading}
      <ViewSelect
        id={`${id}-status`}
        label="Status"
        value={status}
        choices={statuses}
        onIntent={() => prefetch(statuses, status)}
        onPick={go}
      />
      <ViewSelect
        id={`${id}-size`}
        label="Rows per page"
        value={limit}
        choices={limits}
        onIntent={() => prefetch(limits, limit)}
        onPick={go}
      />
      <div className="flex items-center gap-2">
        <input
          id={`${id}-auto`}
          type="checkbox"
          role="switch"
          className="size-4 accent-blue-700 dark:accent-blue-400"
          checked={autoRefresh}
          onChange={(event) => setAutoRefresh(event.target.checked)}
          aria-describedby={`${id}-auto-hint`}
        />
        <label htmlFor={`${id}-auto`} className="font-medium">
          Auto-refresh
        </label>
        <span id={`${id}-auto-hint`} className="sr-only">
          Reloads this page every {AUTO_REFRESH_MS / 1000} seconds while the tab is visible.
        </span>
      </div>
      {failure ? (
        <p role="alert" className="text-red-800 dark:text-red-300">
          Auto-refresh failed: {failure.error.message} It tries again in {AUTO_REFRESH_MS / 1000} s.
        </p>
      ) : null}
      <div className="ml-auto flex items-center gap-2">
        <span role="status" className="text-xs text-zinc-600 empty:hidden dark:text-zinc-400">
          {pending ? "Updating…" : ""}
        </span>
        <button
          type="button"
          className="btn btn-secondary max-sm:px-2 max-sm:py-0.5"
          onClick={() => startTransition(() => router.refresh())}
        >
          Refresh
        </button>
        {/* Phones seldom have a keyboard. */}
        <div className="max-sm:hidden">{keys}</div>
      </div>
    </div>
  );
}

function ViewSelect({
  id,
  label,
  value,
  choices,
  onIntent,
  onPick,
}: {
  id: string;
  label: string;
  value: string;
  choices: ViewChoice[];
  /** A person reaches for the control. */
  onIntent: () => void;
  onPick: (href: string) => void;
}) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      {/* Kept as picked while its view loads, and set again from the page's answer. */}
      <select
        key={value}
        id={id}
        className="field-select"
        defaultValue={value}
        onPointerDown={onIntent}
        onFocus={onIntent}
        onChange={(event) => {
          const choice = choices.find((one) => one.value === event.target.value);
          if (choice) onPick(choice.href);
        }}
      >
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}
