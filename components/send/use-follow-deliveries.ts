import { useEffect, useEffectEvent, useState } from "react";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { FOLLOW_POLL_MS, FOLLOW_TIMEOUT_MS, matchDeliveries, type FollowTarget } from "@/lib/domain/follow";
import { fetchNewestLogs } from "@/lib/browser/queries";

type FollowPhase = "idle" | "waiting" | "landed" | "timed_out";

export interface FollowState {
  phase: FollowPhase;
  target: FollowTarget | null;
  deliveries: WebhookLog[];
}

const NONE: WebhookLog[] = [];

/** Where one send's follow stands: its deliveries once found, or its end without them. */
type Followed = { target: FollowTarget; deliveries: WebhookLog[] } | { target: FollowTarget; timedOut: true };

/**
 * After a test message is sent: reads the newest logs every FOLLOW_POLL_MS (one read at a time)
 * until the deliveries it caused appear or FOLLOW_TIMEOUT_MS passes, then hands them to
 * `onLanded`, so the table and header show them. A failed read is tried again at the next turn.
 */
export function useFollowDeliveries(
  webhookId: string,
  target: FollowTarget | null,
  onLanded: (deliveries: WebhookLog[]) => void,
): FollowState {
  const [followed, setFollowed] = useState<Followed | null>(null);
  const landed = useEffectEvent(onLanded);

  useEffect(() => {
    if (!target) return;
    const controller = new AbortController();
    let timer: number | undefined;
    const turn = async () => {
      if (Date.now() > target.sentAt + FOLLOW_TIMEOUT_MS) {
        setFollowed({ target, timedOut: true });
        return;
      }
      const logs = await fetchNewestLogs(webhookId, controller.signal).catch(() => NONE);
      if (controller.signal.aborted) return;
      const deliveries = matchDeliveries(logs, target);
      if (deliveries.length > 0) {
        setFollowed({ target, deliveries });
        landed(deliveries);
      } else timer = window.setTimeout(() => void turn(), FOLLOW_POLL_MS);
    };
    void turn();
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [webhookId, target]);

  const current = followed?.target === target ? followed : null;
  const phase: FollowPhase = !target
    ? "idle"
    : !current
      ? "waiting"
      : "timedOut" in current
        ? "timed_out"
        : "landed";
  return { phase, target, deliveries: current && "deliveries" in current ? current.deliveries : NONE };
}
