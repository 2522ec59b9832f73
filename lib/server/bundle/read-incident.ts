import "server-only";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { HistorySource } from "@/lib/domain/history/answer-source";
import { IncidentCollector, type Incident } from "@/lib/domain/bundle/incident";
import { visitHistory, type HistoryCall } from "@/lib/server/history/answer";
import type { WebhookId } from "@/lib/server/hub/path-params";

/**
 * What a support bundle needs from a webhook's history: from the console's copy, read further
 * back (up to `cap` logs) only until older logs cannot change it.
 * `partial` says, for a person, where the reading stopped short; a hub failure midway is thrown:
 * a bundle is not made from a history it could not read. `focus`: which failures the bundle is
 * about (a failure issue's).
 */
export async function readIncident(
  call: HistoryCall,
  webhookId: WebhookId,
  window: { from: number; to: number },
  cap: number,
  focus?: (log: WebhookLog) => boolean,
): Promise<{ incident: Incident; partial: string | null; source: HistorySource }> {
  const { visitor, stop, source } = await visitHistory(
    call,
    webhookId,
    cap,
    () => new IncidentCollector(window, focus),
  );
  const incident = visitor.result();
  const partial =
    stop.reason === "cap"
      ? `Only the newest ${stop.read.toLocaleString("en-US")} of ${stop.total.toLocaleString("en-US")} deliveries were read (the cap): ` +
        "older failures of this streak, and the last success before it, may be missing."
      : null;
  return { incident, partial, source };
}
