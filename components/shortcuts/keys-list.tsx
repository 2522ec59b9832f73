"use client";

import { useEffect, useId, useRef } from "react";

/** One line of the list of keys. */
export interface KeyHelp {
  keys: string[];
  does: string;
}

/**
 * The list of a page's keys in a modal dialog, opened each time it is asked for (`asked` counts
 * the asks); Esc, Close or a click beside it closes it.
 */
export function KeysList({ asked, lines }: { asked: number; lines: KeyHelp[] }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, [asked]);
  return (
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
  );
}
