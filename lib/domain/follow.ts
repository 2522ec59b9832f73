/**
 * Following a test message: which logs are the deliveries it caused. Matched by `messageId`
 * when the send answer gave one; otherwise the logs that were not there before sending.
 */
import { LOG_LIMIT_MAX } from "@/lib/domain/api-limits";
import type { WebhookLog } from "@/lib/domain/hub-schemas";

/** What the follow polls: the newest deliveries, every status, as many as the API gives at once. */
export const FOLLOW_LIMIT = LOG_LIMIT_MAX;
export const FOLLOW_POLL_MS = 1000;
export const FOLLOW_TIMEOUT_MS = 30_000;

/** One send being followed; each send has its own object, so two sends of the same message differ. */
export interface FollowTarget {
  messageId: string | null;
  /** Ids of the newest logs just before sending; null when that snapshot failed. */
  knownIds: ReadonlySet<string> | null;
  /** Browser clock at sending. */
  sentAt: number;
}

/** How far the hub's clock may be behind the browser's before "new after sending" misses a log. */
const CLOCK_SKEW_MS = 60_000;

export function matchDeliveries(logs: readonly WebhookLog[], target: FollowTarget): WebhookLog[] {
  if (target.messageId) return logs.filter((log) => log.messageId === target.messageId);
  if (target.knownIds) {
    const known = target.knownIds;
    return logs.filter((log) => !known.has(log.id));
  }
  return logs.filter((log) => {
    const created = Date.parse(log.createdDate);
    return Number.isFinite(created) && created >= target.sentAt - CLOCK_SKEW_MS;
  });
}
