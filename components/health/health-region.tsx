"use client";

import dynamic from "next/dynamic";
import { useAfterLoad } from "@/lib/browser/use-after-load";
import { useLogView } from "@/components/logs/use-log-view";
import { PartBoundary, PartUnavailable } from "@/components/ui/part-boundary";
import type { HealthFilter } from "@/components/health/delivery-health";

const loading = (
  <p role="status" className="text-sm">
    Reading recent deliveries…
  </p>
);

/** The chart and its numbers: their own chunk (d3-scale included), rendered in the browser only. */
const DeliveryHealth = dynamic(() => import("@/components/health/delivery-health"), {
  ssr: false,
  loading: () => loading,
});

/** "Delivery health" at the top of the webhook page: a region that fills in after the rows. */
export function HealthRegion({ webhookId }: { webhookId: string }) {
  const [, setView] = useLogView();
  // Asked for when hydrating, its chunk (d3-scale) takes first-load JS past its budget (bench row "page weight").
  const afterLoad = useAfterLoad();

  function showInTable({ code, since, until }: HealthFilter) {
    void setView({
      status: code === undefined ? null : "Failed",
      code: code === undefined ? null : String(code),
      since: since ?? null,
      until: until ?? null,
      contains: null,
      issue: null,
      cap: null,
      page: null,
      log: null,
    });
    document.getElementById("logs-heading")?.scrollIntoView({ block: "start" });
  }

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
        <PartBoundary fallback={<PartUnavailable what="Delivery health view" />}>
          <DeliveryHealth webhookId={webhookId} onFilter={showInTable} />
        </PartBoundary>
      ) : (
        loading
      )}
    </section>
  );
}
