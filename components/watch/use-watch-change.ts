import { useEffect, useRef } from "react";
import { useQuery } from "@tanstack/react-query";
import { watchQueryOptions } from "@/components/watch/watch-api";

/**
 * Calls `onChange` when the webhook's watch starts, stops or moves to another application, which
 * changes who answers its history (the watch's store or a scan); not when the watch is first read.
 */
export function useWatchChange(webhookId: string, onChange: () => void): void {
  // Observes the watch that Watch / Stop watching reads and sets; fetching it is theirs.
  const { data } = useQuery({ ...watchQueryOptions(webhookId), enabled: false });
  const owner = data === undefined ? undefined : (data?.appId ?? null);
  const seen = useRef(owner);
  useEffect(() => {
    if (owner === undefined) return;
    if (seen.current !== undefined && seen.current !== owner) onChange();
    seen.current = owner;
  }, [owner, onChange]);
}
