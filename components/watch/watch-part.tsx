"use client";

import dynamic from "next/dynamic";
import { useAfterLoad } from "@/lib/browser/use-after-load";
import { PartBoundary, PartUnavailable } from "@/components/ui/part-boundary";

/** Watch / Stop watching and the webhook's alert settings: their own chunk, rendered in the browser only. */
const WatchControl = dynamic(() => import("@/components/watch/watch-control"), { ssr: false });

export function WatchPart({ webhookId }: { webhookId: string }) {
  // Asked for when hydrating, its chunk (zod included) takes first-load JS past its budget (bench row "page weight").
  const afterLoad = useAfterLoad();
  // Its height is reserved, so the page below does not move when it fills in.
  return (
    <div className="min-h-[5.5rem]">
      {afterLoad ? (
        <PartBoundary fallback={<PartUnavailable what="Watch control" />}>
          <WatchControl webhookId={webhookId} />
        </PartBoundary>
      ) : null}
    </div>
  );
}
