/**
 * What a person pasted into "Find a delivery": a log ID, a message ID (both UUIDs: either may
 * match), or a console link to a delivery (`…/webhooks/<webhookId>?log=<logId>`).
 */
import { isUuidShape } from "@/lib/domain/api-limits";
import { decodedOrNull } from "@/lib/domain/percent-decoding";

/** Longest text the Find box reads (a console link with its query fits easily). */
export const FIND_INPUT_MAX = 2048;

export type FindTarget =
  /** A bare UUID: the log with this id, or the delivery of the message with this id. */
  | { kind: "id"; id: string }
  /** A console link: the log it opens, on the webhook it names. */
  | { kind: "log"; id: string; webhookId: string };

export type FindInputResult = { ok: true; target: FindTarget } | { ok: false; message: string };

export function parseFindInput(raw: string): FindInputResult {
  const value = raw.trim();
  if (value === "") return { ok: false, message: "is empty: paste a message ID, a log ID or a console link" };
  if (value.length > FIND_INPUT_MAX)
    return { ok: false, message: `may be at most ${FIND_INPUT_MAX} characters` };
  if (isUuidShape(value)) return { ok: true, target: { kind: "id", id: value.toLowerCase() } };
  let url: URL | null = null;
  try {
    url = new URL(value, "http://console.invalid");
  } catch {
    url = null;
  }
  const path = url ? /\/webhooks\/([^/?#]+)\/?$/.exec(url.pathname) : null;
  if (!url || !path || !(/^https?:\/\//i.test(value) || value.startsWith("/"))) {
    return { ok: false, message: "is not a message ID, a log ID (UUIDs) or a console link to a delivery" };
  }
  const webhookId = decodedOrNull(path[1]!);
  const log = url.searchParams.get("log");
  if (webhookId === null || !isUuidShape(webhookId))
    return { ok: false, message: "is a link whose webhook ID is not a UUID" };
  if (!log) return { ok: false, message: "is a link to a webhook, not to a delivery (it has no ?log=…)" };
  if (!isUuidShape(log)) return { ok: false, message: "is a link whose log ID is not a UUID" };
  return { ok: true, target: { kind: "log", id: log.toLowerCase(), webhookId: webhookId.toLowerCase() } };
}

/** Does this log answer the target? */
export function matchesTarget(target: FindTarget, log: { id: string; messageId?: string | null }): boolean {
  const id = log.id.toLowerCase();
  if (target.kind === "log") return id === target.id;
  return id === target.id || log.messageId?.toLowerCase() === target.id;
}
