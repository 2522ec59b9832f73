"use client";

import { useRouter } from "next/navigation";
import { useLayoutEffect, useRef, type MouseEvent, type ReactNode } from "react";
import { plainClick } from "@/lib/browser/plain-click";
import { useNow } from "@/lib/browser/use-now";
import { localizeBucketTimes } from "@/components/health/bucket-time";
import { localizeMoments } from "@/components/ui/moment";

/**
 * Delivery health's answer, what it does in the browser done once for the region rather than by a
 * client component per bar, row and time (its parts are plain server-rendered elements):
 * - its links (a bar, a row of its table, a status code) are followed in the page as `next/link`
 *   would follow them (the table's view changes, the page does not scroll); a click that opens a
 *   new tab or window is the browser's;
 * - its times (Moments, the bars' BucketTimes and titles) are written in the viewer's zone once
 *   mounted, as the log rows' are (components/logs/log-rows-body.tsx).
 */
export function HealthLinks({ className, children }: { className?: string; children: ReactNode }) {
  const router = useRouter();
  const now = useNow();
  const region = useRef<HTMLDivElement>(null);

  // Before paint, and again whenever the answer or the time change.
  useLayoutEffect(() => {
    if (!region.current || !now) return;
    localizeMoments(region.current, now);
    localizeBucketTimes(region.current, now);
  }, [children, now]);

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
    <div ref={region} className={className} onClick={onClick}>
      {children}
    </div>
  );
}
