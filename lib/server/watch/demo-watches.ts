import "server-only";
import { serverConfig } from "@/lib/server/config";
import { fetchSandboxDemo } from "@/lib/server/hub/client";
import { applicationId } from "@/lib/server/session/key-hash";
import type { StoreContext } from "@/lib/server/store/context";
import { addWatches } from "@/lib/server/watch/watches";

/**
 * In sandbox mode the demo's webhooks are watched out of the box, so the first `npm start` shows
 * the overview working. Once any of an application's are watched, only those are kept up (under
 * the key's current id): a webhook a person stopped watching stays unwatched.
 */
export async function watchSandboxDemo(ctx: StoreContext): Promise<void> {
  if (!serverConfig().sandboxMode) return;
  const demo = await fetchSandboxDemo(AbortSignal.timeout(5000));
  const applications = demo.applications.length > 0 ? demo.applications : [demo];
  for (const app of applications) {
    const ids = app.webhooks.map((webhook) => webhook.id);
    if (ids.length === 0) continue;
    const rows = await ctx.db
      .selectFrom("watches")
      .select("webhook_id")
      .where("webhook_id", "in", ids)
      .execute();
    const watched = new Set(rows.map((row) => row.webhook_id));
    const chosen = watched.size > 0 ? app.webhooks.filter((w) => watched.has(w.id)) : app.webhooks;
    await addWatches(
      ctx,
      applicationId(app.apiKey),
      app.apiKey,
      chosen.map((webhook) => ({
        webhook: { ...webhook, numberOfErrors: 0 },
        name: watched.has(webhook.id) ? undefined : (webhook.label ?? webhook.endpoint),
      })),
    );
  }
}
