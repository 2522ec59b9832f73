"use client";

import { useRouter } from "next/navigation";
import { useLayoutEffect, useRef, type MouseEvent, type ReactNode } from "react";
import { plainClick } from "@/lib/browser/plain-click";
import { useNow } from "@/lib/browser/use-now";
import { localizeMoments } from "@/components/ui/moment";
import { useHighlighted } from "@/components/webhook/highlighted";

/**
 * The log table's `<tbody>` around its rows, plain elements rendered on the server (`<tr
 * data-log-id>`, each with a Details link `a[data-details-for]`). What the rows do in the browser
 * is done here once for all of them rather than by a client component per row: a click anywhere
 * on a row opens its details in place, as its Details link does (the keyboard way); the followed
 * test message's rows are highlighted (`data-highlighted`, styled in app/globals.css); their
 * times are written in the viewer's form once mounted (components/ui/moment.tsx).
 */
export function LogRowsBody({ children }: { children: ReactNode }) {
  const router = useRouter();
  const highlighted = useHighlighted();
  const now = useNow();
  const body = useRef<HTMLTableSectionElement>(null);

  // Before paint, and again whenever the rows, the followed message or the time change.
  useLayoutEffect(() => {
    const rows = body.current;
    if (!rows) return;
    if (now) localizeMoments(rows, now);
    for (const row of rows.querySelectorAll<HTMLElement>("tr[data-log-id]")) {
      if (highlighted.has(row.dataset.logId ?? "")) row.dataset.highlighted = "true";
      else delete row.dataset.highlighted;
    }
  }, [children, highlighted, now]);

  function onClick(event: MouseEvent<HTMLTableSectionElement>) {
    const target = event.target as Element;
    const details = target.closest("tr[data-log-id]")?.querySelector("a[data-details-for]");
    const href = details?.getAttribute("href");
    if (!href) return;
    const control = target.closest("a, button");
    if (control) {
      // Only the Details link opens in place (a plain <a>: a Link per row costs every view of the table).
      if (control !== details || !plainClick(event)) return;
      event.preventDefault();
    } else if (window.getSelection()?.toString()) {
      // Selecting text is not a click.
      return;
    }
    router.replace(href, { scroll: false });
  }

  return (
    <tbody ref={body} onClick={onClick} className="divide-y divide-zinc-200 dark:divide-zinc-800">
      {children}
    </tbody>
  );
}
