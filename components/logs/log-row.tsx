"use client";

import { useRouter } from "next/navigation";
import type { MouseEvent, ReactNode } from "react";
import { useHighlighted } from "@/components/webhook/highlighted";

/**
 * One delivery's row of the log table (its cells rendered on the server). A click anywhere on it
 * opens its details, as its Details link does (the keyboard way). The rows of the followed test
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
    // Links and buttons in the row act for themselves; selecting text is not a click.
    if ((event.target as HTMLElement).closest("button, a")) return;
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
