import "server-only";
import { withStore } from "@/lib/server/store/context";
import type { RuleSettings } from "@/lib/domain/alerts/rules";
import type { WebhookAlertSettings } from "@/lib/domain/alerts/webhook-alert-settings";
import { activeSnooze, snoozedUntilFor } from "@/lib/domain/alerts/snooze";
import type { WebhookAlertSettingsInput } from "@/lib/domain/inputs/alert-rules";
import type { StoreContext } from "@/lib/server/store/context";
import {
  appRules,
  rulesFor,
  saveAppRules,
  saveWebhookOverride,
  webhookOverride,
} from "@/lib/server/alerts/rules-store";

/**
 * What the rules routes do: read and save an application's default rules, and one watched
 * webhook's own settings (overrides, snooze, quiet hours) under the application that watches it.
 * Input is checked by the routes' schemas first; a database failure is `store_unavailable`.
 */

export function readAppRules(appId: string): Promise<RuleSettings> {
  return withStore((ctx) => appRules(ctx, appId));
}

export function replaceAppRules(appId: string, rules: RuleSettings): Promise<RuleSettings> {
  return withStore(async (ctx) => {
    await saveAppRules(ctx, appId, rules);
    return appRules(ctx, appId);
  });
}

async function settingsOf(
  ctx: StoreContext,
  appId: string,
  webhookId: string,
  now: number,
): Promise<WebhookAlertSettings> {
  const [application, { rules, override }] = await Promise.all([
    appRules(ctx, appId),
    rulesFor(ctx, appId, webhookId),
  ]);
  return {
    webhookId,
    appId,
    application,
    override: { ...override, snoozedUntil: activeSnooze(override.snoozedUntil, now) },
    rules,
  };
}

/** A watched webhook's alert settings, under the application that watches it (`appId`). */
export function readWebhookAlertSettings(
  appId: string,
  webhookId: string,
  now = Date.now(),
): Promise<WebhookAlertSettings> {
  return withStore((ctx) => settingsOf(ctx, appId, webhookId, now));
}

/** Changes what the input names (a key left out keeps what is stored), and answers with the result. */
export function changeWebhookAlertSettings(
  appId: string,
  webhookId: string,
  input: WebhookAlertSettingsInput,
  now = Date.now(),
): Promise<WebhookAlertSettings> {
  return withStore(async (ctx) => {
    const stored = await webhookOverride(ctx, appId, webhookId);
    let snoozedUntil = stored.snoozedUntil;
    if (input.snooze) snoozedUntil = input.snooze === "off" ? null : snoozedUntilFor(input.snooze, now);
    await saveWebhookOverride(
      ctx,
      appId,
      webhookId,
      {
        rules: input.rules ?? stored.rules,
        quietHours: input.quietHours === undefined ? stored.quietHours : input.quietHours,
        snoozedUntil,
      },
      now,
    );
    return settingsOf(ctx, appId, webhookId, now);
  });
}
