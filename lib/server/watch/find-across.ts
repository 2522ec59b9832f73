import "server-only";
import type { FindTarget } from "@/lib/domain/history/find-input";
import type { FoundDelivery } from "@/lib/domain/watch/find-across";
import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import type { StoreContext } from "@/lib/server/store/context";
import { logOf } from "@/lib/server/history/questions";
import type { StoreDatabase } from "@/lib/server/store/schema";
import { watchOf } from "@/lib/server/watch/watches";

/**
 * The newest stored delivery answering the target among the watched webhooks of these applications
 * (a console link: only the one it names), by log id through the primary key or by message id
 * through its index (migration 0007); the newer of the two wins.
 */
export async function findAcross(
  ctx: StoreContext,
  appIds: readonly string[],
  target: FindTarget,
): Promise<FoundDelivery | null> {
  if (appIds.length === 0) return null;
  const id = target.id.toLowerCase();
  const newest = (
    where: (eb: ExpressionBuilder<StoreDatabase, "watch_logs" | "watches">) => Expression<SqlBool>,
  ) =>
    ctx.db
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
      .where(where)
      .orderBy("watch_logs.created_at", "desc")
      .orderBy("watch_logs.id", "desc")
      .limit(1)
      .executeTakeFirst();
  const byLogId = await newest((eb) =>
    target.kind === "log"
      ? eb.and([eb("watch_logs.webhook_id", "=", target.webhookId), eb("watch_logs.id", "=", id)])
      : eb("watch_logs.id", "=", id),
  );
  const byMessageId =
    target.kind === "id" ? await newest((eb) => eb("watch_logs.message_id", "=", id)) : undefined;
  const row = [byLogId, byMessageId]
    .filter((found) => found !== undefined)
    .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1))[0];
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
