"use client";

import dynamic from "next/dynamic";
import { PartBoundary, PartUnavailable } from "@/components/ui/part-boundary";

/** Watch / Stop watching: its own chunk, loaded after the page's rows (it needs no first paint). */
const WatchControl = dynamic(() => import("@/components/watch/watch-control"), { ssr: false });

export function WatchPart({ webhookId }: { webhookId: string }) {
  // Its height is reserved, so the page below does not move when it fills in.
  return (
    <div className="min-h-[5.5rem]">
      <PartBoundary fallback={<PartUnavailable what="Watch control" />}>
        <WatchControl webhookId={webhookId} />
      </PartBoundary>
    </div>
  );
}
