import "server-only";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { IncidentCollector, type Incident } from "@/lib/domain/handover/incident";
import { openHistory, type ScanCall } from "@/lib/server/history/scan";
import type { WebhookId } from "@/lib/server/hub/path-params";

/**
 * What a support bundle needs from a webhook's history, read through the scan (newest first, up
 * to `cap` logs), stopping as soon as older logs cannot change it. `partial` says, for a person,
 * where the reading stopped short; a hub failure midway is thrown: a bundle is not made from a
 * history it could not read. `focus`: which failures the bundle is about (a failure issue's).
 */
export async function readIncident(
  call: ScanCall,
  webhookId: WebhookId,
  window: { from: number; to: number },
  cap: number,
  focus?: (log: WebhookLog) => boolean,
): Promise<{ incident: Incident; partial: string | null }> {
  const collector = new IncidentCollector(window, focus);
  const reader = await openHistory(call, webhookId, { cap, retain: true });
  let read = 0;
  let wantsMore = true;
  try {
    while (wantsMore) {
      const batch = await reader.next();
      if (!batch) break;
      for (const log of batch) {
        read++;
        wantsMore = collector.add(log);
        if (!wantsMore) break;
      }
    }
  } finally {
    reader.close();
  }
  const incident = collector.result();
  if (!wantsMore) return { incident, partial: null };
  const stop = reader.stop;
  if (stop.reason === "failed") throw stop.error;
  const partial =
    stop.reason === "cap"
      ? `Only the newest ${read.toLocaleString("en-US")} of ${reader.total.toLocaleString("en-US")} deliveries were read (the scan's cap): ` +
        "older failures of this streak, and the last success before it, may be missing."
      : null;
  return { incident, partial };
}
