"use client";

import { useRouter } from "next/navigation";
import { Suspense, useEffect, useId, useRef } from "react";
import { lazyPart } from "@/components/ui/lazy-part";
import { PartBoundary, PartUnavailable } from "@/components/ui/part-boundary";
import type { WebhookLog } from "@/lib/domain/hub-schemas";

/** The dialog's body, a chunk of its own: the dialog opens at once and its body follows. */
const LogDetails = lazyPart(() =>
  import("@/components/logs/log-details").then((loaded) => loaded.LogDetails),
);

/**
 * One delivery in full (`?log=`): a native modal `<dialog>` (focus trapped, Esc closes, the rest
 * of the page inert), which opens itself when the page names a delivery. Closing it goes back to
 * the view it was opened from (`closeHref`: the same address without `log`) and to that
 * delivery's row, when the view shows it. The response body is only ever rendered as text, so
 * HTML or script in it shows and never runs.
 */
export function LogDialog({
  logId,
  log,
  missing,
  closeHref,
}: {
  logId: string;
  log: WebhookLog | null;
  /** Why the delivery could not be found. */
  missing: string | null;
  closeHref: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const router = useRouter();
  /** Set when the page no longer names this delivery: its dialog closes, and the page stays where it went. */
  const leaving = useRef(false);

  useEffect(() => {
    const dialog = ref.current;
    leaving.current = false;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      leaving.current = true;
      if (dialog?.open) dialog.close();
    };
  }, []);

  function onClose() {
    // (A close that was undone, or the dialog going with its page, is no close by the person.)
    if (leaving.current || ref.current?.open) return;
    router.replace(closeHref, { scroll: false });
    // Back to where the person was: the row's Details link (the row stays while the page answers).
    document.querySelector<HTMLElement>(`[data-details-for="${CSS.escape(log?.id ?? logId)}"]`)?.focus();
  }

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
            {/* A delivery not found is named as it was asked for: a log ID or a message ID (Find). */}
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
              <Suspense fallback={<p role="status">Loading this delivery…</p>}>
                <LogDetails log={log} />
              </Suspense>
            </PartBoundary>
          ) : (
            <p role="status" className="text-sm">
              {missing}
            </p>
          )}
        </div>
      </div>
    </dialog>
  );
}
