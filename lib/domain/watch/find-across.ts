/**
 * Find across every watched webhook: what it answers, and what it says when nothing answers.
 * Plain data and words, shared by the route and the header's Find box.
 */
import type { FindTarget } from "@/lib/domain/history/find-input";
import type { Watch } from "@/lib/domain/watch/overview";
import type { StoredLog } from "@/lib/domain/watch/stored-log";

/** The header Find's label, kept apart from its zod schema so the header (every page) loads no zod. */
export const FIND_ACROSS_LABEL = "Find in watched webhooks";

/** `GET /api/watches/find?q=`: the delivery, its watch, and the console's address that opens it. */
export interface FoundDelivery {
  log: StoredLog;
  watch: Watch;
}

export interface FindAcrossAnswer extends FoundDelivery {
  href: string;
}

/** Why Find found nothing, naming its field and where it looked. */
export function notFoundAcross(
  target: FindTarget,
  looked: { watches: number; applications: number; linkedWatched: boolean },
): string {
  const label = `${FIND_ACROSS_LABEL}:`;
  if (looked.watches === 0) {
    return (
      `${label} nothing is watched in this session's applications, so there is nowhere to look. ` +
      "Watch webhooks on the Watch page, or open the webhook and use Find a delivery there."
    );
  }
  if (target.kind === "log" && !looked.linkedWatched) {
    return (
      `${label} the link's webhook (${target.webhookId}) is not watched by an application of this session. ` +
      "Open the link itself, or watch that webhook first."
    );
  }
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  const where = `${count(looked.watches, "watched webhook")} in ${count(looked.applications, "application")}`;
  return (
    `${label} no watched webhook has a delivery with that ID. Find looks at watched webhooks only (${where}), ` +
    "in the history the watcher has stored. Check the ID, or open the webhook and use Find a delivery there, which reads its whole history."
  );
}
