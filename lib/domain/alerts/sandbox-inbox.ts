/**
 * The sandbox's alert inbox (lib/sandbox/inbox.ts): where its stand-ins (Slack, signed webhook,
 * PagerDuty, Teams, Discord) listen, and the secret the signed one verifies with. Shared with the console, which lets
 * alerts go to this inbox of the sandbox it was started with, and offers it on the Alerts page.
 */

export const SANDBOX_INBOX_PATH = "/_sandbox/inbox";

/** Public on purpose, like the demo key: it guards nothing. */
export const SANDBOX_INBOX_SIGNING_SECRET = "whsec_c2FuZGJveCBhbGVydCBpbmJveDogcHVibGljIGRlbW8gc2VjcmV0";

/** The inbox's stand-ins under its base URL (`http://127.0.0.1:4010/_sandbox/inbox`). */
export function sandboxInboxUrls(inbox: string) {
  return {
    slack: `${inbox}/slack`,
    webhook: `${inbox}/webhook`,
    pagerduty: `${inbox}/pagerduty`,
    teams: `${inbox}/teams`,
    discord: `${inbox}/discord`,
  };
}
