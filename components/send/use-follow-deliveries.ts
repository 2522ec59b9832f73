import { useQuery } from "@tanstack/react-query";
import { useEffect, useEffectEvent, useMemo, useState } from "react";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import {
  FOLLOW_POLL_MS,
  FOLLOW_TIMEOUT_MS,
  FOLLOW_VIEW,
  matchDeliveries,
  type FollowTarget,
} from "@/lib/domain/follow";
import { logsQueryOptions } from "@/lib/browser/queries";

type FollowPhase = "idle" | "waiting" | "landed" | "timed_out";

export interface FollowState {
  phase: FollowPhase;
  target: FollowTarget | null;
  deliveries: WebhookLog[];
}

const NONE: WebhookLog[] = [];

/**
 * After a test message is sent: poll the newest logs every second until the deliveries it
 * caused appear (or FOLLOW_TIMEOUT_MS passes), then `onLanded`, so the table and header show them.
 */
export function useFollowDeliveries(
  webhookId: string,
  target: FollowTarget | null,
  onLanded: () => void,
): FollowState {
  const [timedOut, setTimedOut] = useState<FollowTarget | null>(null);

  const { data } = useQuery({
    ...logsQueryOptions(webhookId, FOLLOW_VIEW),
    enabled: target !== null,
    staleTime: 0,
    refetchInterval: (query) => {
      if (!target || timedOut === target) return false;
      const logs = query.state.data?.data ?? NONE;
      return matchDeliveries(logs, target).length > 0 ? false : FOLLOW_POLL_MS;
    },
  });

  const deliveries = useMemo(
    () => (target && data ? matchDeliveries(data.data, target) : NONE),
    [data, target],
  );
  const phase: FollowPhase = !target
    ? "idle"
    : deliveries.length > 0
      ? "landed"
      : timedOut === target
        ? "timed_out"
        : "waiting";

  useEffect(() => {
    if (!target || phase !== "waiting") return;
    const remaining = Math.max(0, target.sentAt + FOLLOW_TIMEOUT_MS - Date.now());
    const timer = window.setTimeout(() => setTimedOut(target), remaining);
    return () => window.clearTimeout(timer);
  }, [target, phase]);

  const landedCount = deliveries.length;
  const landed = useEffectEvent(onLanded);
  useEffect(() => {
    if (landedCount > 0) landed();
  }, [landedCount]);

  return { phase, target, deliveries };
}
