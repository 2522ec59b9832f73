import "server-only";
import type { StoreContext } from "@/lib/server/store/context";
import { rebuildIssuesOf } from "@/lib/server/watch/failure-issues";
import { storedSignature } from "@/lib/server/watch/cursor";

/** Stored failures signed at once. */
const SIGN_BATCH = 1000;

/**
 * What live code derives from logs stored before it did (migrations only shape tables): failures'
 * cause signatures and watched webhooks' issues. The watcher runs it at start; idempotent.
 */
export async function fillDerived(ctx: StoreContext): Promise<void> {
  for (;;) {
    const batch = await ctx.db
      .selectFrom("watch_logs")
      .select(["webhook_id", "id", "status", "status_code", "body"])
      .where("status", "!=", "Success")
      .where("signature", "is", null)
      .limit(SIGN_BATCH)
      .execute();
    for (const log of batch) {
      await ctx.db
        .updateTable("watch_logs")
        .set({ signature: storedSignature(log.status, log.status_code, log.body) })
        .where("webhook_id", "=", log.webhook_id)
        .where("id", "=", log.id)
        .execute();
    }
    if (batch.length < SIGN_BATCH) break;
  }
  const unbuilt = await ctx.db
    .selectFrom("watches")
    .select("watches.webhook_id")
    .where("watches.webhook_id", "not in", (eb) => eb.selectFrom("failure_issues").select("webhook_id"))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("watch_logs")
          .select("watch_logs.id")
          .whereRef("watch_logs.webhook_id", "=", "watches.webhook_id")
          .where("watch_logs.status", "!=", "Success"),
      ),
    )
    .execute();
  for (const { webhook_id } of unbuilt) await rebuildIssuesOf(ctx.db, webhook_id, ctx.issueResolveAfter);
}
