/**
 * What "Find a delivery" looks for, and which log answers it. What a person pasted becomes a
 * target through `findInput` (lib/domain/inputs/find-delivery.ts).
 */

export type FindTarget =
  /** A bare UUID: the log with this id, or the delivery of the message with this id. */
  | { kind: "id"; id: string }
  /** A console link: the log it opens, on the webhook it names. */
  | { kind: "log"; id: string; webhookId: string };

/** Does this log answer the target? */
export function matchesTarget(target: FindTarget, log: { id: string; messageId?: string | null }): boolean {
  const id = log.id.toLowerCase();
  if (target.kind === "log") return id === target.id;
  return id === target.id || log.messageId?.toLowerCase() === target.id;
}
