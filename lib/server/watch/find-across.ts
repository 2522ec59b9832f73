import "server-only";
import type { FindTarget } from "@/lib/domain/history/find-input";
import type { FoundDelivery } from "@/lib/domain/watch/find-across";
import type { StoreContext } from "@/lib/server/watch/context";
import { findLog } from "@/lib/server/watch/stored-logs";
import { getWatch } from "@/lib/server/watch/watches";

/**
 * The newest stored delivery answering the target among every watched webhook of these
 * applications: by log id, or by log or message id for a bare UUID; a console link looks only at
 * the webhook it names. Each webhook's lookup uses its own (webhook_id, id) and
 * (webhook_id, message_id) indexes, so the cost grows with the number of watches, not of logs.
 */
export async function findAcross(
  ctx: StoreContext,
  appIds: readonly string[],
  target: FindTarget,
): Promise<FoundDelivery | null> {
  if (appIds.length === 0) return null;
  const id = target.id.toLowerCase();
  const hit = await ctx.db
    .selectFrom("watch_logs")
    .innerJoin("watches", "watches.webhook_id", "watch_logs.webhook_id")
    .select(["watch_logs.webhook_id", "watch_logs.id"])
    .where("watches.app_id", "in", appIds)
    .$if(target.kind === "log", (qb) =>
      qb.where("watch_logs.webhook_id", "=", target.kind === "log" ? target.webhookId : ""),
    )
    .where((eb) =>
      target.kind === "log"
        ? eb("watch_logs.id", "=", id)
        : eb.or([eb("watch_logs.id", "=", id), eb("watch_logs.message_id", "=", id)]),
    )
    .orderBy("watch_logs.created_at", "desc")
    .orderBy("watch_logs.id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!hit) return null;
  const [found, watch] = await Promise.all([
    findLog(ctx, hit.webhook_id, { kind: "log", id: hit.id, webhookId: hit.webhook_id }),
    getWatch(ctx, appIds, hit.webhook_id),
  ]);
  return found && watch ? { log: found.log, watch } : null;
}
