"use client";

import { useRouter } from "next/navigation";
import type { MouseEvent, ReactNode } from "react";
import { plainClick } from "@/lib/browser/plain-click";

/**
 * Delivery health's links (a bar, a row of its table, a status code), followed in the page as
 * `next/link` would follow them (the table's view changes, the page does not scroll) by one click
 * handler for the region: its links are plain server-rendered anchors, so hydrating the region
 * costs one component, not one per bar and row. A click that opens a new tab or window is the
 * browser's.
 */
export function HealthLinks({ className, children }: { className?: string; children: ReactNode }) {
  const router = useRouter();
  function onClick(event: MouseEvent<HTMLDivElement>) {
    if (event.defaultPrevented || !plainClick(event)) return;
    const link = (event.target as Element).closest("a[href]");
    if (!link || (link.getAttribute("target") ?? "_self") !== "_self" || link.hasAttribute("download"))
      return;
    const url = new URL(link.getAttribute("href")!, window.location.href);
    if (url.origin !== window.location.origin) return;
    event.preventDefault();
    router.push(`${url.pathname}${url.search}${url.hash}`, { scroll: false });
  }
  return (
    // Not a control of its own: the clicks it takes are its links' (each reachable by keyboard).
    <div className={className} onClick={onClick}>
      {children}
    </div>
  );
}
