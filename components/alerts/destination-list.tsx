"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import {
  DESTINATION_KIND_NAMES,
  type DeliveryView,
  type DestinationView,
} from "@/lib/domain/alerts/destinations";
import { InlineQuestion } from "@/components/ui/inline-question";
import { Notice } from "@/components/ui/notice";
import {
  alertKeys,
  fetchDestinations,
  removeDestination,
  sendTestAlert,
} from "@/components/alerts/alerts-api";
import { DELIVERY_STATE_TEXT } from "@/components/alerts/delivery-log";

/**
 * The application's destinations, each with "Send test alert" and "Remove" (which asks first:
 * nothing is sent to it any more), and what the last action did.
 */
export function DestinationList() {
  const queryClient = useQueryClient();
  const destinations = useQuery({
    queryKey: alertKeys.destinations,
    queryFn: ({ signal }) => fetchDestinations(signal),
  });
  const refreshLog = () => queryClient.invalidateQueries({ queryKey: alertKeys.deliveries });
  const heading = useRef<HTMLHeadingElement>(null);
  // The status line says what the last action did, so each action clears the other's outcome.
  const test = useMutation({
    mutationFn: (destination: DestinationView) => sendTestAlert(destination.id),
    onMutate: (): void => remove.reset(),
    onSettled: refreshLog,
  });
  const remove = useMutation({
    mutationFn: (destination: DestinationView) => removeDestination(destination.id),
    onMutate: (): void => test.reset(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.destinations }),
  });

  return (
    <section aria-labelledby="destinations-heading" className="card space-y-3 p-4">
      <h2 ref={heading} id="destinations-heading" tabIndex={-1} className="text-base font-semibold">
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
            <DestinationItem
              key={destination.id}
              destination={destination}
              testing={test.isPending}
              removing={remove.isPending}
              onTest={() => test.mutate(destination)}
              onRemove={async () => {
                try {
                  await remove.mutateAsync(destination);
                  // Its item and buttons are gone: focus stays in the list's region.
                  heading.current?.focus();
                  return true;
                } catch {
                  return false;
                }
              }}
            />
          ))}
        </ul>
      )}
      <p role="status" className="text-sm">
        {test.isPending ? `Sending a test alert to "${test.variables.label}"…` : null}
        {test.data ? testOutcome(test.data) : null}
        {test.error ? `The test alert could not be sent: ${test.error.message}` : null}
        {remove.isSuccess ? `Removed "${remove.variables.label}": no alert is sent to it any more.` : null}
        {remove.error ? `Not removed: ${remove.error.message}` : null}
      </p>
    </section>
  );
}

/**
 * One destination. Remove asks first, inline: focus goes to Cancel (the safe answer), Escape or
 * Cancel closes the question and focus returns to Remove, as Stop watching does.
 */
function DestinationItem({
  destination,
  testing,
  removing,
  onTest,
  onRemove,
}: {
  destination: DestinationView;
  testing: boolean;
  removing: boolean;
  onTest: () => void;
  /** False when the removal was refused (said in the status line), and the destination stays. */
  onRemove: () => Promise<boolean>;
}) {
  const [confirming, setConfirming] = useState(false);
  const removeButton = useRef<HTMLButtonElement>(null);

  function closeQuestion() {
    setConfirming(false);
    removeButton.current?.focus();
  }

  async function confirmRemove() {
    // Once removed, the item goes from the list with its buttons; it stays when refused.
    if (!(await onRemove())) closeQuestion();
  }

  return (
    <li aria-label={destination.label} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
      <span className="font-semibold">{destination.label}</span>
      <span className="text-zinc-600 dark:text-zinc-400">{DESTINATION_KIND_NAMES[destination.kind]}</span>
      <span className="font-mono text-xs break-all">{destination.target}</span>
      <span className="ml-auto flex gap-2">
        <button type="button" className="btn btn-secondary btn-small" disabled={testing} onClick={onTest}>
          Send test alert
        </button>
        <button
          ref={removeButton}
          type="button"
          className="btn btn-secondary btn-small"
          disabled={removing}
          aria-expanded={confirming}
          onClick={() => setConfirming(true)}
        >
          Remove
        </button>
      </span>
      {confirming ? (
        <InlineQuestion
          question={`Remove "${destination.label}"? No alert is sent to it any more; Recent deliveries keeps what was sent to it.`}
          confirm="Remove destination"
          pending="Removing…"
          busy={removing}
          onConfirm={() => void confirmRemove()}
          onCancel={closeQuestion}
        />
      ) : null}
    </li>
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
