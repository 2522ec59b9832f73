import { webhookAlertSettingsSchema } from "@/lib/domain/inputs/alert-rules";
import { defineRoute } from "@/lib/server/http/route";
import { withStore } from "@/lib/server/store/context";
import { watchingApp } from "@/lib/server/watch/watches";
import { changeWebhookAlertSettings, readWebhookAlertSettings } from "@/lib/server/alerts/rule-settings";
import { watchParamsSchema } from "@/app/api/watches/schema";
import { appIdsOf } from "@/app/api/watches/overview-answer";

/**
 * `{ settings }`: a watched webhook's alert settings (the application's rules, its own overrides,
 * snooze and quiet hours, and the rules that apply). 404 when no application of the session watches it.
 */
export const GET = defineRoute({
  params: watchParamsSchema,
  async handle({ params, session }) {
    const appIds = appIdsOf(await session.storeApps());
    const appId = await withStore((ctx) => watchingApp(ctx, appIds, params.webhookId));
    return Response.json({ settings: await readWebhookAlertSettings(appId, params.webhookId) });
  },
});

/** Changes `{ rules?, quietHours?, snooze? }`; a key left out keeps what is stored. */
export const PUT = defineRoute({
  params: watchParamsSchema,
  body: webhookAlertSettingsSchema,
  async handle({ params, body, session }) {
    const appIds = appIdsOf(await session.storeApps());
    const appId = await withStore((ctx) => watchingApp(ctx, appIds, params.webhookId));
    return Response.json({ settings: await changeWebhookAlertSettings(appId, params.webhookId, body) });
  },
});
