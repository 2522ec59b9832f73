import "server-only";
import type { FindTarget } from "@/lib/domain/history/find-input";
import type { FoundDelivery } from "@/lib/domain/watch/find-across";
import type { StoreContext } from "@/lib/server/watch/context";
import { logOf } from "@/lib/server/watch/stored-logs";
import { watchOf } from "@/lib/server/watch/watches";

/**
 * The newest stored delivery answering the target among every watched webhook of these
 * applications: by log id, or by log or message id for a bare UUID; a console link looks only at
 * the webhook it names. One query: the logs are looked up by id and by message id across all
 * webhooks (migration 0007's indexes) and joined to their watch, so the cost grows with neither
 * the number of watches nor of logs.
 */
export async function findAcross(
  ctx: StoreContext,
  appIds: readonly string[],
  target: FindTarget,
): Promise<FoundDelivery | null> {
  if (appIds.length === 0) return null;
  const id = target.id.toLowerCase();
  const row = await ctx.db
    .selectFrom("watch_logs")
    .innerJoin("watches", "watches.webhook_id", "watch_logs.webhook_id")
    .selectAll("watch_logs")
    .select([
      "watches.app_id",
      "watches.name",
      "watches.endpoint",
      "watches.event_type",
      "watches.created_at as watched_at",
    ])
    .where("watches.app_id", "in", appIds)
    .where((eb) =>
      target.kind === "log"
        ? eb.and([eb("watch_logs.webhook_id", "=", target.webhookId), eb("watch_logs.id", "=", id)])
        : eb.or([eb("watch_logs.id", "=", id), eb("watch_logs.message_id", "=", id)]),
    )
    .orderBy("watch_logs.created_at", "desc")
    .orderBy("watch_logs.id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const { app_id, name, endpoint, event_type, watched_at, ...log } = row;
  return {
    log: logOf(log, { id: log.webhook_id, endpoint, eventType: event_type }),
    watch: watchOf({
      webhook_id: log.webhook_id,
      app_id,
      name,
      endpoint,
      event_type,
      created_at: watched_at,
    }),
  };
}
