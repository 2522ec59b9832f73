"use client";

import { useRouter } from "next/navigation";
import type { MouseEvent, ReactNode } from "react";
import { useHighlighted } from "@/components/webhook/highlighted";

/**
 * One delivery's row of the log table (its cells rendered on the server). A click anywhere on it
 * opens its details, as its Details link does (the keyboard way), in place. The rows of the followed test
 * message's deliveries are highlighted (styled in app/globals.css).
 */
export function LogRow({
  logId,
  openHref,
  children,
}: {
  logId: string;
  openHref: string;
  children: ReactNode;
}) {
  const router = useRouter();
  const highlighted = useHighlighted(logId);
  function onClick(event: MouseEvent<HTMLTableRowElement>) {
    const control = (event.target as HTMLElement).closest("button, a");
    if (control) {
      // The Details link opens in place, as the row does (a plain <a>, not a Link per row: bench row
      // "interaction, Next page"); a modified click opens it the browser's way.
      const plain = !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
      if (control.hasAttribute("data-details-for") && plain) {
        event.preventDefault();
        router.replace(openHref, { scroll: false });
      }
      return;
    }
    // Selecting text is not a click.
    if (window.getSelection()?.toString()) return;
    router.replace(openHref, { scroll: false });
  }
  return (
    <tr
      data-log-id={logId}
      data-highlighted={highlighted || undefined}
      onClick={onClick}
      className="cursor-pointer align-middle hover:bg-zinc-50 dark:hover:bg-zinc-800/60"
    >
      {children}
    </tr>
  );
}
