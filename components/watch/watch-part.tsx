"use client";

import dynamic from "next/dynamic";
import { useAfterLoad } from "@/lib/browser/use-after-load";
import { PartBoundary, PartUnavailable } from "@/components/ui/part-boundary";

/** The form: a chunk of its own, rendered in the browser once the page has loaded. */
const WatchForm = dynamic(() => import("@/components/watch/watch-form").then((loaded) => loaded.WatchForm), {
  ssr: false,
});

/** "Watch", on the page of a webhook nobody watches: after the rows, in the height it will take. */
export function WatchPart({ webhookId }: { webhookId: string }) {
  const afterLoad = useAfterLoad();
  return (
    <div className="min-h-[8.375rem] sm:min-h-[5.875rem]">
      {afterLoad ? (
        <PartBoundary fallback={<PartUnavailable what="Watch form" />}>
          <WatchForm webhookId={webhookId} />
        </PartBoundary>
      ) : null}
    </div>
  );
}
