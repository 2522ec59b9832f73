"use client";

import { useQuery } from "@tanstack/react-query";
import { DESTINATION_KIND_NAMES, type DeliveryState } from "@/lib/domain/alerts/destinations";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import { alertKeys, fetchDeliveries } from "@/components/alerts/alerts-api";

export const DELIVERY_STATE_TEXT: Record<DeliveryState, string> = {
  pending: "Waiting to send",
  sending: "Sending",
  delivered: "Delivered",
  failed: "Failed",
  refused: "Refused",
};

const STATE_TONE: Record<DeliveryState, string> = {
  pending: "text-amber-900 dark:text-amber-200",
  sending: "text-amber-900 dark:text-amber-200",
  delivered: "text-emerald-800 dark:text-emerald-300",
  failed: "text-red-800 dark:text-red-300",
  refused: "text-red-800 dark:text-red-300",
};

/** Our own deliveries, as we show the hub's: each alert to each destination, its attempts and last answer. */
export function DeliveryLog() {
  const deliveries = useQuery({
    queryKey: alertKeys.deliveries,
    queryFn: ({ signal }) => fetchDeliveries(signal),
    // While a delivery waits in the outbox or is being sent, its row changes: read it again.
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.state === "pending" || d.state === "sending") ? 2000 : false,
  });

  return (
    <section aria-labelledby="deliveries-heading" className="card space-y-3 p-4">
      <h2 id="deliveries-heading" className="text-base font-semibold">
        Recent deliveries
      </h2>
      {deliveries.error ? (
        <Notice tone="error" title="The delivery log could not be read">
          <p>{deliveries.error.message}</p>
        </Notice>
      ) : deliveries.isPending ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Reading the delivery log…</p>
      ) : deliveries.data.length === 0 ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">No alert has been sent yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-zinc-600 dark:text-zinc-400">
              <tr>
                <th className="py-1 pr-3">Sent at</th>
                <th className="py-1 pr-3">Destination</th>
                <th className="py-1 pr-3">Alert</th>
                <th className="py-1 pr-3">State</th>
                <th className="py-1 pr-3">Attempts</th>
                <th className="py-1">Response</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {deliveries.data.map((delivery) => (
                <tr key={delivery.id} className="align-top">
                  <td className="py-1.5 pr-3 whitespace-nowrap">
                    <LocalTime iso={delivery.createdAt} form="relative" />
                  </td>
                  <td className="py-1.5 pr-3">
                    {delivery.destinationLabel}
                    <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                      {DESTINATION_KIND_NAMES[delivery.kind]}
                    </span>
                  </td>
                  <td className="py-1.5 pr-3">{delivery.title}</td>
                  <td className={`py-1.5 pr-3 font-semibold ${STATE_TONE[delivery.state]}`}>
                    {DELIVERY_STATE_TEXT[delivery.state]}
                    {delivery.statusCode === null ? "" : ` (${delivery.statusCode})`}
                    {delivery.nextAttemptAt && delivery.attempts > 0 ? (
                      <span className="block text-xs font-normal">
                        Next attempt at <LocalTime iso={delivery.nextAttemptAt} />
                      </span>
                    ) : null}
                  </td>
                  <td className="py-1.5 pr-3 tabular-nums">{delivery.attempts}</td>
                  <td className="max-w-md py-1.5 font-mono text-xs break-all">
                    {delivery.error ? <span className="block font-sans">{delivery.error}</span> : null}
                    {delivery.response}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
