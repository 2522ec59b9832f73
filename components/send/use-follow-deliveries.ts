import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import {
  FOLLOW_POLL_MS,
  FOLLOW_TIMEOUT_MS,
  FOLLOW_VIEW,
  matchDeliveries,
  type FollowTarget,
} from "@/lib/domain/follow";
import { logsQueryOptions } from "@/lib/browser/queries";
import { webhookKeys } from "@/lib/domain/query-keys";

type FollowPhase = "idle" | "waiting" | "landed" | "timed_out";

export interface FollowState {
  phase: FollowPhase;
  target: FollowTarget | null;
  deliveries: WebhookLog[];
}

const NONE: WebhookLog[] = [];

/**
 * After a test message is sent: poll the newest logs every second until the deliveries it
 * caused appear (or FOLLOW_TIMEOUT_MS passes), then refresh the table and header so they show.
 */
export function useFollowDeliveries(webhookId: string, target: FollowTarget | null): FollowState {
  const queryClient = useQueryClient();
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
  useEffect(() => {
    if (landedCount === 0) return;
    // The table and the Errors count now differ from the hub: refresh them (the webhook and every view of its logs).
    void queryClient.invalidateQueries({ queryKey: webhookKeys.webhook(webhookId) });
  }, [landedCount, queryClient, webhookId]);

  return { phase, target, deliveries };
}
