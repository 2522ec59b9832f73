import type { RuleSettings, WebhookRuleOverride } from "@/lib/domain/alerts/rules";

/** A watched webhook's alert settings as `/api/watches/{webhookId}/alert-rules` answers them. */
export interface WebhookAlertSettings {
  webhookId: string;
  /** The application that watches it, whose defaults it follows. */
  appId: string;
  /** The application's rules. */
  application: RuleSettings;
  /** Its own settings; `snoozedUntil` null once a snooze has ended. */
  override: WebhookRuleOverride;
  /** The rules that apply to it. */
  rules: RuleSettings;
}
