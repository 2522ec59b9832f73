import "server-only";
import type { Webhook } from "@/lib/domain/hub-schemas";
import { sharedStoreContext, toIso, type StoreContext } from "@/lib/server/store/context";

/** How long the page waits for the store while the hub is down, before it shows the hub's error alone. */
const LOOKUP_TIMEOUT_MS = 2000;

/** A watched webhook as the watcher last read it from the hub, and when. */
export interface StoredWebhook {
  webhook: Webhook;
  asOf: string;
}

/**
 * The webhook as the application's watch last read it, for when the hub does not answer; null
 * when it is not watched by `appId`, was never read, or the database does not answer in time.
 */
export async function storedWebhook(appId: string, webhookId: string): Promise<StoredWebhook | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), LOOKUP_TIMEOUT_MS);
  });
  const work = sharedStoreContext().then((ctx) => readStored(ctx, appId, webhookId));
  try {
    return await Promise.race([work, timeout]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
  }
}

async function readStored(
  ctx: StoreContext,
  appId: string,
  webhookId: string,
): Promise<StoredWebhook | null> {
  const row = await ctx.db
    .selectFrom("watches")
    .innerJoin("watch_state", "watch_state.webhook_id", "watches.webhook_id")
    .select([
      "watches.webhook_id",
      "watches.endpoint",
      "watches.event_type",
      "watch_state.active",
      "watch_state.number_of_errors",
      "watch_state.polled_at",
    ])
    .where("watches.webhook_id", "=", webhookId.toLowerCase())
    .where("watches.app_id", "=", appId)
    .executeTakeFirst();
  if (!row || row.polled_at === null || row.active === null || row.number_of_errors === null) return null;
  return {
    webhook: {
      id: row.webhook_id,
      endpoint: row.endpoint,
      eventType: row.event_type,
      active: row.active === 1,
      numberOfErrors: row.number_of_errors,
    },
    asOf: toIso(row.polled_at),
  };
}
