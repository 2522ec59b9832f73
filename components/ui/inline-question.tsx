"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * A question asked in place before an action that cannot be undone: the question, the action's
 * button and Cancel. Focus goes to Cancel, the safe answer, when it opens; Escape cancels. Where
 * focus goes when it closes is the owner's to say (the button that opened it, or what replaces it).
 */
export function InlineQuestion({
  question,
  confirm,
  pending,
  busy,
  onConfirm,
  onCancel,
}: {
  question: ReactNode;
  /** The action's button, and its text while the action runs. */
  confirm: string;
  pending: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const questionId = useId();
  const cancelButton = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelButton.current?.focus(), []);

  return (
    <div
      role="group"
      aria-labelledby={questionId}
      className="flex basis-full flex-wrap items-center gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-950 dark:border-red-900 dark:bg-red-950/50 dark:text-red-100"
      onKeyDown={(event) => {
        if (event.key === "Escape" && !busy) onCancel();
      }}
    >
      <p id={questionId} className="basis-full">
        {question}
      </p>
      <button type="button" className="btn btn-primary" disabled={busy} onClick={onConfirm}>
        {busy ? pending : confirm}
      </button>
      <button
        ref={cancelButton}
        type="button"
        className="btn btn-secondary"
        disabled={busy}
        onClick={onCancel}
      >
        Cancel
      </button>
    </div>
  );
}
