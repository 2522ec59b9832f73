"use client";

import { useId, useRef, useState } from "react";
import { useShortcuts } from "@/lib/browser/use-shortcuts";

/** One line of the list of keys. */
export interface KeyHelp {
  keys: string[];
  does: string;
}

interface Props {
  /** The rows `j`/`k` move through, in order. */
  rowSelector: string;
  /** Within a row, the control that opens it: focused on a move, so Enter opens the row. */
  openSelector: string;
  /** What a row is called, and what is said of it when moved to. */
  rowNoun: string;
  rowLabel: (row: HTMLElement) => string;
  /** The Find field `/` focuses. */
  findId: string;
  /** What `f` does: open and focus the page's filters. */
  onFilters: () => void;
  /** The page's lines of the list `?` shows, besides `?` itself. */
  help: KeyHelp[];
}

/**
 * Keyboard triage on a page: `j`/`k` move the focus through the rows (to each row's open control,
 * so Enter opens it and Esc closes its dialog), `/` focuses Find, `f` opens the filters, `?` lists
 * the keys in a dialog. Each move is announced in a live region; the "Keyboard shortcuts" button
 * is the way to the list without knowing the key.
 */
export function TriageKeys({ rowSelector, openSelector, rowNoun, rowLabel, findId, onFilters, help }: Props) {
  const [announcement, setAnnouncement] = useState("");
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  function move(step: 1 | -1) {
    const rows = [...document.querySelectorAll<HTMLElement>(rowSelector)];
    if (rows.length === 0) {
      setAnnouncement(`No ${rowNoun}s to move through.`);
      return;
    }
    const at = rows.findIndex((row) => row.contains(document.activeElement));
    const next =
      at === -1 ? (step === 1 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + step));
    const row = rows[next]!;
    (row.querySelector<HTMLElement>(openSelector) ?? row).focus();
    const edge = next === at ? (step === 1 ? " (the last)" : " (the first)") : "";
    setAnnouncement(
      `${rowNoun[0]!.toUpperCase()}${rowNoun.slice(1)} ${next + 1} of ${rows.length}${edge}: ${rowLabel(row)}. Enter opens it.`,
    );
  }

  useShortcuts({
    j: () => move(1),
    k: () => move(-1),
    "/": () => document.getElementById(findId)?.focus(),
    f: onFilters,
    "?": () => dialog.current?.showModal(),
  });

  const lines: KeyHelp[] = [...help, { keys: ["?"], does: "Show this list of keys" }];
  return (
    <>
      <button
        type="button"
        className="btn btn-small"
        aria-keyshortcuts="?"
        onClick={() => dialog.current?.showModal()}
      >
        Keyboard shortcuts
      </button>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        onClick={(event) => {
          if (event.target === event.currentTarget) event.currentTarget.close();
        }}
        className="m-auto w-[min(30rem,calc(100vw-1.5rem))] rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-2xl dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
      >
        <div className="space-y-3 px-5 py-4">
          <div className="flex items-start justify-between gap-3">
            <h2 id={titleId} className="text-base font-semibold">
              Keyboard shortcuts
            </h2>
            <button type="button" className="btn btn-secondary" onClick={() => dialog.current?.close()}>
              Close
            </button>
          </div>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            Keys work when the focus is not in a field, and without Ctrl, Alt or ⌘.
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            {lines.map((line) => (
              <div key={line.does} className="contents">
                <dt className="whitespace-nowrap">
                  {line.keys.map((key, i) => (
                    <span key={key}>
                      {i > 0 ? " or " : null}
                      <kbd className="rounded border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-xs dark:border-zinc-600 dark:bg-zinc-800">
                        {key}
                      </kbd>
                    </span>
                  ))}
                </dt>
                <dd>{line.does}</dd>
              </div>
            ))}
          </dl>
        </div>
      </dialog>
    </>
  );
}
