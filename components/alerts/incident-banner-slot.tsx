"use client";

import dynamic from "next/dynamic";
import { useAfterLoad } from "@/lib/browser/use-after-load";
import { PartBoundary } from "@/components/ui/part-boundary";

/** The banner, its query and its notifications: a chunk of their own, rendered in the browser only. */
const IncidentBanner = dynamic(() => import("@/components/alerts/incident-banner"), { ssr: false });

/** Where the alerts banner goes on every signed-in page: filled in once the page has loaded. */
export function IncidentBannerSlot() {
  // The page's own rows and requests come first; the banner reads the incidents after them.
  const afterLoad = useAfterLoad();
  return afterLoad ? (
    // A banner that cannot load leaves the page as it is: the Alerts page still lists the incidents.
    <PartBoundary fallback={null}>
      <IncidentBanner />
    </PartBoundary>
  ) : null;
}
