"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  DESTINATION_KIND_NAMES,
  type DeliveryView,
  type DestinationView,
} from "@/lib/domain/alerts/destinations";
import { Notice } from "@/components/ui/notice";
import {
  alertKeys,
  fetchDestinations,
  removeDestination,
  sendTestAlert,
} from "@/components/alerts/alerts-api";
import { DELIVERY_STATE_TEXT } from "@/components/alerts/delivery-log";

/** The application's destinations, each with "Send test alert" and "Remove", and what the last action did. */
export function DestinationList() {
  const queryClient = useQueryClient();
  const destinations = useQuery({
    queryKey: alertKeys.destinations,
    queryFn: ({ signal }) => fetchDestinations(signal),
  });
  const refreshLog = () => queryClient.invalidateQueries({ queryKey: alertKeys.deliveries });
  const test = useMutation({
    mutationFn: (destination: DestinationView) => sendTestAlert(destination.id),
    onSettled: refreshLog,
  });
  const remove = useMutation({
    mutationFn: (destination: DestinationView) => removeDestination(destination.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.destinations }),
  });

  return (
    <section aria-labelledby="destinations-heading" className="card space-y-3 p-4">
      <h2 id="destinations-heading" className="text-base font-semibold">
        Destinations
      </h2>
      {destinations.error ? (
        <Notice tone="error" title="The destinations could not be read">
          <p>{destinations.error.message}</p>
        </Notice>
      ) : destinations.isPending ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Reading the destinations…</p>
      ) : destinations.data.length === 0 ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          None yet: add one below, then send it a test alert.
        </p>
      ) : (
        <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {destinations.data.map((destination) => (
            <li
              key={destination.id}
              aria-label={destination.label}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm"
            >
              <span className="font-semibold">{destination.label}</span>
              <span className="text-zinc-600 dark:text-zinc-400">
                {DESTINATION_KIND_NAMES[destination.kind]}
              </span>
              <span className="font-mono text-xs break-all">{destination.target}</span>
              <span className="ml-auto flex gap-2">
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  disabled={test.isPending}
                  onClick={() => test.mutate(destination)}
                >
                  Send test alert
                </button>
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(destination)}
                >
                  Remove
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <p role="status" className="text-sm">
        {test.isPending ? `Sending a test alert to "${test.variables.label}"…` : null}
        {test.data ? testOutcome(test.data) : null}
        {test.error ? `The test alert could not be sent: ${test.error.message}` : null}
        {remove.error ? `Not removed: ${remove.error.message}` : null}
      </p>
    </section>
  );
}

/** What the first attempt did; a failed one that is retried points at the log, where the next ones show. */
function testOutcome(delivery: DeliveryView): string {
  const answer = delivery.statusCode === null ? "" : ` (answered ${delivery.statusCode})`;
  const to = `Test alert to "${delivery.destinationLabel}"`;
  if (delivery.state === "pending") {
    const why = answer || (delivery.error ? ` (${delivery.error})` : "");
    return `${to}: not delivered yet${why} after 1 attempt; it is retried with backoff, and Recent deliveries shows each attempt.`;
  }
  const attempts = delivery.attempts === 1 ? "1 attempt" : `${delivery.attempts} attempts`;
  return `${to}: ${DELIVERY_STATE_TEXT[delivery.state]}${answer} after ${attempts}.${
    delivery.error ? ` ${delivery.error}` : ""
  }`;
}
