import "server-only";
import type { FindTarget } from "@/lib/domain/history/find-input";
import type { FoundDelivery } from "@/lib/domain/watch/find-across";
import type { StoreContext } from "@/lib/server/watch/context";
import { findLog } from "@/lib/server/watch/stored-logs";
import { getWatch } from "@/lib/server/watch/watches";

/**
 * The newest stored delivery answering the target among every watched webhook of these
 * applications: by log id, or by log or message id for a bare UUID; a console link looks only at
 * the webhook it names. The watched webhooks are listed first and named in each lookup, so each
 * uses its (webhook_id, id) or (webhook_id, message_id) index: the cost grows with the number of
 * watches, not of logs (a join lets the database scan every stored log instead).
 */
export async function findAcross(
  ctx: StoreContext,
  appIds: readonly string[],
  target: FindTarget,
): Promise<FoundDelivery | null> {
  if (appIds.length === 0) return null;
  const watched = (
    await ctx.db.selectFrom("watches").select("webhook_id").where("app_id", "in", appIds).execute()
  ).map((row) => row.webhook_id);
  const webhookIds = target.kind === "log" ? watched.filter((id) => id === target.webhookId) : watched;
  if (webhookIds.length === 0) return null;
  const id = target.id.toLowerCase();
  const newestWith = (column: "id" | "message_id") =>
    ctx.db
      .selectFrom("watch_logs")
      .select(["webhook_id", "id", "created_at"])
      .where("webhook_id", "in", webhookIds)
      .where(column, "=", id)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
  const hits = (
    await Promise.all(
      target.kind === "log" ? [newestWith("id")] : [newestWith("id"), newestWith("message_id")],
    )
  ).filter((hit) => hit !== undefined);
  const hit = hits.sort((a, b) => Number(b.created_at) - Number(a.created_at) || b.id.localeCompare(a.id))[0];
  if (!hit) return null;
  const [found, watch] = await Promise.all([
    findLog(ctx, hit.webhook_id, { kind: "log", id: hit.id, webhookId: hit.webhook_id }),
    getWatch(ctx, appIds, hit.webhook_id),
  ]);
  return found && watch ? { log: found.log, watch } : null;
}
