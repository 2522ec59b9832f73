"use client";

import dynamic from "next/dynamic";
import { useEffect, useId, useRef } from "react";
import { PartBoundary, PartUnavailable } from "@/components/ui/part-boundary";
import type { WebhookLog } from "@/lib/domain/hub-schemas";

/** The dialog's body, a chunk of its own: the dialog opens at once and its body follows. */
const LogDetails = dynamic(
  () => import("@/components/logs/log-details").then((loaded) => loaded.LogDetails),
  {
    loading: () => <p role="status">Loading this delivery…</p>,
  },
);

/**
 * One delivery in full: a native modal `<dialog>` (focus trapped, Esc closes, the rest of the
 * page inert). Mounted only while a log is open; opens itself on mount. The response body is
 * only ever rendered as text, so HTML or script in it shows and never runs.
 */
export function LogDialog({
  logId,
  log,
  loading,
  missing,
  onClose,
}: {
  logId: string;
  log: WebhookLog | null;
  loading: boolean;
  /** Why the delivery could not be found, when a search for it failed. */
  missing: string | null;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);

  return (
    // A click on the backdrop closes it too; the keyboard way is Esc or the Close button.
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
      className="m-auto max-h-[92vh] w-[min(64rem,calc(100vw-1.5rem))] max-w-none overflow-hidden rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-2xl dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <div className="flex max-h-[92vh] flex-col">
        <div className="flex items-start justify-between gap-3 border-b border-zinc-200 px-5 py-3 dark:border-zinc-800">
          <div className="min-w-0">
            <h2 id={titleId} className="text-base font-semibold">
              Delivery details
            </h2>
            {/* Until the delivery is loaded, the ID asked for may be a log ID or a message ID (Find). */}
            <p className="font-mono text-xs break-all text-zinc-600 dark:text-zinc-400">
              {log ? `Log ${log.id}` : `Log or message ID ${logId}`}
            </p>
          </div>
          <button type="button" className="btn btn-secondary" onClick={() => ref.current?.close()}>
            Close
          </button>
        </div>
        <div className="overflow-y-auto px-5 py-4">
          {log ? (
            <PartBoundary fallback={<PartUnavailable what="details view" />}>
              <LogDetails log={log} />
            </PartBoundary>
          ) : loading ? (
            <p role="status">Loading this delivery…</p>
          ) : (
            <p role="status" className="text-sm">
              {missing ??
                "This delivery is not on the current page of logs. Close this and use Find a delivery, or filter the history."}
            </p>
          )}
        </div>
      </div>
    </dialog>
  );
}
