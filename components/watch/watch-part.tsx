"use client";

import { Suspense } from "react";
import { lazyPart, PartUnavailable } from "@/components/ui/lazy-part";
import { useAfterLoad } from "@/lib/browser/use-after-load";

/** Watch / Stop watching: its own chunk, loaded once the webhook's rows are on screen. */
const WatchControl = lazyPart(
  () => import("@/components/watch/watch-control").then((loaded) => loaded.default),
  () => <PartUnavailable what="Watch control" />,
);

export function WatchPart({ webhookId }: { webhookId: string }) {
  const afterLoad = useAfterLoad();
  // Its height is reserved, so the page below does not move when it fills in.
  return (
    <div className="min-h-[5.5rem]">
      {afterLoad ? <Suspense>{<WatchControl webhookId={webhookId} />}</Suspense> : null}
    </div>
  );
}
