"use client";

import { useId, type FormEvent } from "react";
import { DESTINATION_KIND_NAMES } from "@/lib/domain/alerts/destinations";
import { VIEWER, formatTimestamp } from "@/lib/domain/format-time";
import { KEEP_DESTINATIONS_LABEL } from "@/lib/domain/inputs/hand-over";
import { handOverLines, type HandOverPlan } from "@/lib/domain/watch/hand-over";

/**
 * What a hand-over to a new key would carry (lib/domain/watch/hand-over.ts), listed before
 * anything moves, with a checkbox per alert destination: the person keeps the ones they know and
 * drops the others (a destination added with the old key by whoever still held it would go on
 * receiving the alerts). Shown only after a person's action, so times are written in their zone.
 */
export function HandOverChoices({
  plan,
  title,
  submitLabel,
  pending,
  error,
  onCarry,
  onSkip,
  skipLabel = "Not now",
}: {
  plan: HandOverPlan;
  title: string;
  submitLabel: string;
  pending: boolean;
  error: string | null;
  onCarry: (keepDestinations: string[]) => void;
  onSkip?: () => void;
  skipLabel?: string;
}) {
  const legendId = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onCarry(new FormData(event.currentTarget).getAll("keep").map(String));
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-labelledby={`${legendId}-title`}>
      <p id={`${legendId}-title`} className="font-semibold">
        {title}
      </p>
      <ul className="list-disc space-y-1 pl-5">
        {handOverLines(plan, (iso) => formatTimestamp(iso, VIEWER)).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <fieldset className="space-y-2" aria-describedby={`${legendId}-hint`}>
        <legend className="font-medium">{KEEP_DESTINATIONS_LABEL}</legend>
        <p id={`${legendId}-hint`} className="text-xs">
          {plan.destinations.length
            ? "Untick any destination you do not recognise: one added with the old key, by someone who still held it, " +
              "would otherwise go on receiving your alerts. Unticked destinations are removed."
            : "None: the application has no alert destinations."}
        </p>
        {plan.destinations.map((destination) => (
          <label key={destination.id} className="flex items-start gap-2">
            <input type="checkbox" name="keep" value={destination.id} defaultChecked className="mt-1" />
            <span>
              <span className="font-medium">{destination.label}</span>
              {` — ${DESTINATION_KIND_NAMES[destination.kind]} to ${destination.target}, added ${formatTimestamp(destination.createdAt, VIEWER)}`}
            </span>
          </label>
        ))}
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? "Carrying over…" : submitLabel}
        </button>
        {onSkip ? (
          <button type="button" className="btn btn-secondary" onClick={onSkip} disabled={pending}>
            {skipLabel}
          </button>
        ) : null}
      </div>
      <div aria-live="assertive">{error ? <p className="font-medium">{error}</p> : null}</div>
    </form>
  );
}
