import "server-only";
import {
  DEFAULT_RULES,
  NO_OVERRIDE,
  effectiveRules,
  type RuleSettings,
  type WebhookRuleOverride,
} from "@/lib/domain/alerts/rules";
import type { StoreContext } from "@/lib/server/store/context";
import type { StoreDb } from "@/lib/server/store/schema";

/**
 * The alert rules as stored (`alert_rules`): an application's defaults under webhook_id "", one
 * webhook's override under its id. Values are checked before they are written (the routes' input
 * schemas); what is read is merged over the defaults, so a rule added later has its default.
 */

const APP_DEFAULTS = "";

async function readSettings(ctx: StoreContext, appId: string, webhookId: string): Promise<unknown> {
  const row = await ctx.db
    .selectFrom("alert_rules")
    .select("settings")
    .where("app_id", "=", appId)
    .where("webhook_id", "=", webhookId)
    .executeTakeFirst();
  return row ? JSON.parse(row.settings) : null;
}

async function writeSettings(
  ctx: StoreContext,
  appId: string,
  webhookId: string,
  settings: unknown,
  now: number,
): Promise<void> {
  const values = {
    app_id: appId,
    webhook_id: webhookId,
    settings: JSON.stringify(settings),
    updated_at: now,
  };
  await ctx.db
    .insertInto("alert_rules")
    .values(values)
    .onConflict((conflict) =>
      conflict.columns(["app_id", "webhook_id"]).doUpdateSet({ settings: values.settings, updated_at: now }),
    )
    .execute();
}

/** The application's rules: its saved defaults, each rule falling back to DEFAULT_RULES. */
export async function appRules(ctx: StoreContext, appId: string): Promise<RuleSettings> {
  const saved = (await readSettings(ctx, appId, APP_DEFAULTS)) as Partial<RuleSettings> | null;
  return { ...DEFAULT_RULES, ...saved };
}

export function saveAppRules(ctx: StoreContext, appId: string, rules: RuleSettings, now = Date.now()) {
  return writeSettings(ctx, appId, APP_DEFAULTS, rules, now);
}

/** One webhook's override (NO_OVERRIDE when it has none). */
export async function webhookOverride(
  ctx: StoreContext,
  appId: string,
  webhookId: string,
): Promise<WebhookRuleOverride> {
  const saved = (await readSettings(ctx, appId, webhookId)) as Partial<WebhookRuleOverride> | null;
  return { ...NO_OVERRIDE, ...saved };
}

/** The overrides of every webhook of an application that has one, by webhook id. */
export async function webhookOverrides(
  ctx: StoreContext,
  appId: string,
): Promise<Map<string, WebhookRuleOverride>> {
  const rows = await ctx.db
    .selectFrom("alert_rules")
    .select(["webhook_id", "settings"])
    .where("app_id", "=", appId)
    .where("webhook_id", "<>", APP_DEFAULTS)
    .execute();
  return new Map(rows.map((row) => [row.webhook_id, { ...NO_OVERRIDE, ...JSON.parse(row.settings) }]));
}

export function saveWebhookOverride(
  ctx: StoreContext,
  appId: string,
  webhookId: string,
  override: WebhookRuleOverride,
  now = Date.now(),
) {
  return writeSettings(ctx, appId, webhookId, override, now);
}

/** True when the application saved default rules of its own. */
export async function hasOwnRules(ctx: StoreContext, appId: string): Promise<boolean> {
  return (await readSettings(ctx, appId, APP_DEFAULTS)) !== null;
}

/**
 * Moves an application's rules, with each webhook's snooze and quiet hours, to its new id. Where
 * the new id already has settings of its own (saved with the new key), those are kept.
 */
export async function moveRulesTo(db: StoreDb, oldAppId: string, appId: string): Promise<void> {
  if (oldAppId === appId) return;
  const rows = await db.selectFrom("alert_rules").selectAll().where("app_id", "=", oldAppId).execute();
  for (const row of rows) {
    await db
      .insertInto("alert_rules")
      .values({ ...row, app_id: appId })
      .onConflict((conflict) => conflict.columns(["app_id", "webhook_id"]).doNothing())
      .execute();
  }
  await db.deleteFrom("alert_rules").where("app_id", "=", oldAppId).execute();
}

/** The rules that apply to one webhook, with its snooze and quiet hours. */
export async function rulesFor(
  ctx: StoreContext,
  appId: string,
  webhookId: string,
): Promise<{ rules: RuleSettings; override: WebhookRuleOverride }> {
  const [app, override] = await Promise.all([appRules(ctx, appId), webhookOverride(ctx, appId, webhookId)]);
  return { rules: effectiveRules(app, override), override };
}
