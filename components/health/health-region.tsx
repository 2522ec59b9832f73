"use client";

import { Suspense } from "react";
import { lazyPart, PartUnavailable } from "@/components/ui/lazy-part";
import { useAfterLoad } from "@/lib/browser/use-after-load";
import { NO_HISTORY_FILTERS } from "@/lib/domain/log-view";
import { setLogView } from "@/components/logs/use-log-view";
import type { HealthFilter } from "@/components/health/delivery-health";

/** The chart and its numbers: their own chunk (d3-scale included), loaded after the rows. */
const DeliveryHealth = lazyPart(
  () => import("@/components/health/delivery-health").then((loaded) => loaded.default),
  () => <PartUnavailable what="Delivery health view" />,
);

function showInTable({ code, since, until }: HealthFilter) {
  setLogView({
    ...NO_HISTORY_FILTERS,
    code: code === undefined ? null : String(code),
    since: since ?? null,
    until: until ?? null,
    status: code === undefined ? null : "Failed",
    page: 1,
    log: null,
  });
  document.getElementById("logs-heading")?.scrollIntoView({ block: "start" });
}

/** "Delivery health" at the top of the webhook page: a region that fills in after the rows. */
export function HealthRegion({ webhookId }: { webhookId: string }) {
  const afterLoad = useAfterLoad();
  const loading = (
    <p role="status" className="text-sm">
      Reading recent deliveries…
    </p>
  );
  return (
    // Its height is reserved (what the chart and numbers take at each width), so the rows below
    // do not move when it fills in.
    <section
      aria-labelledby="health-heading"
      className="card min-h-[47rem] space-y-3 p-4 sm:min-h-[39rem] lg:min-h-[27rem]"
    >
      <h2 id="health-heading" className="text-base font-semibold">
        Delivery health
      </h2>
      {afterLoad ? (
        <Suspense fallback={loading}>
          <DeliveryHealth webhookId={webhookId} onFilter={showInTable} />
        </Suspense>
      ) : (
        loading
      )}
    </section>
  );
}
