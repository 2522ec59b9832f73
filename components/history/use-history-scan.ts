import { useQuery } from "@tanstack/react-query";
import { useScan } from "@/lib/browser/use-scan";
import { watchQueryOptions } from "@/components/watch/watch-api";

/**
 * A scan of a webhook's history (`path`; null: none). Whether the webhook is watched, and under
 * which application, decides who answers (the watch's store or the hub): the scan waits until
 * that is known, and is asked again when it changes (Watch, Stop watching).
 */
export function useHistoryScan(webhookId: string, path: string | null) {
  const watch = useQuery({ ...watchQueryOptions(webhookId), enabled: path !== null });
  return useScan(watch.isPending ? null : path, watch.data?.appId ?? null);
}
