/**
 * The webhook's own changes between the last success and a failure (`active` flipped,
 * `numberOfErrors` moved), as the watch's timeline saw them: part of "what changed since it last
 * worked". Only a watched webhook has a timeline; for any other the changes are not known.
 */
import type { TimelineEvent } from "@/lib/domain/watch/stored-log";

/** Events listed one by one (the newest); the sentence tells the net change over all of them. */
export const CHANGES_LISTED = 20;

export type WebhookChanges =
  | { known: false; why: string }
  | {
      known: true;
      /** ISO time the watch began (its first poll soon after): nothing before it is known. */
      watchedSince: string;
      /** The newest events seen between the two deliveries, oldest first, at most CHANGES_LISTED. */
      events: TimelineEvent[];
      /** Events seen between them beyond those listed. */
      more: number;
      /** How many of all the events were changes of a value: a first sighting changes nothing. */
      changed: number;
      /** `active` after each flip between them, in order. */
      flips: boolean[];
      /** numberOfErrors before the first and after the last of its moves between them; null when it did not move. */
      errors: { from: number; to: number } | null;
    };

export const NOT_WATCHED: WebhookChanges = {
  known: false,
  why: "This webhook is not watched, so its changes between the two deliveries are not known.",
};

/** The changes from every event seen between the two deliveries, newest first as the store reads them. */
export function changesBetween(newestFirst: readonly TimelineEvent[], watchedSince: string): WebhookChanges {
  const oldestFirst = [...newestFirst].reverse();
  const changes = oldestFirst.filter((event) => event.previous !== null);
  const moves = changes.filter((event) => event.kind === "errors");
  return {
    known: true,
    watchedSince,
    events: oldestFirst.slice(-CHANGES_LISTED),
    more: Math.max(0, oldestFirst.length - CHANGES_LISTED),
    changed: changes.length,
    flips: changes.filter((event) => event.kind === "active").map((event) => event.active),
    errors:
      moves.length > 0 ? { from: moves[0]!.previous as number, to: moves.at(-1)!.numberOfErrors } : null,
  };
}

/** One event in words: `Deactivated (active true → false)`, `numberOfErrors 12 → 13`. */
export function changeText(event: TimelineEvent): string {
  if (event.kind === "active") {
    if (event.previous === null) return `First seen ${event.active ? "active" : "inactive"}`;
    return event.active ? "Activated (active false → true)" : "Deactivated (active true → false)";
  }
  if (event.previous === null) return `First seen with numberOfErrors ${event.numberOfErrors}`;
  return `numberOfErrors ${String(event.previous)} → ${event.numberOfErrors}`;
}

/**
 * One sentence about the changes between a success at `successAt` and a failure: that none was
 * seen, what moved, or why they are not known. `at` says a time for the reader.
 */
export function changesSentence(
  changes: WebhookChanges,
  successAt: string,
  at: (iso: string) => string,
): string {
  if (!changes.known) return changes.why;
  // When the watch began after the success, the changes are known only from then on.
  const span =
    Date.parse(changes.watchedSince) > Date.parse(successAt)
      ? `since the watch began at ${at(changes.watchedSince)}, after the last success (earlier changes are not known)`
      : "between them";
  const count = changes.changed;
  if (count === 0) return `The webhook itself (active, numberOfErrors) did not change ${span}.`;
  const parts = [
    ...(changes.flips.length > 0
      ? [`it was ${changes.flips.map((active) => (active ? "activated" : "deactivated")).join(", then ")}`]
      : []),
    ...(changes.errors ? [`numberOfErrors went from ${changes.errors.from} to ${changes.errors.to}`] : []),
  ];
  const what = parts.length > 0 ? `: ${parts.join("; ")}` : "";
  return `The webhook changed ${count} ${count === 1 ? "time" : "times"} ${span}${what}.`;
}
