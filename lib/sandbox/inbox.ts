/**
 * The sandbox's alert inbox: stand-ins for the places the console sends alerts to, so alerts can
 * be tried with no outside service. It receives Slack-shaped posts, Standard Webhooks signed
 * posts (checked with the reference library against INBOX_SIGNING_SECRET), email (its SMTP
 * listener, inbox-smtp.ts) and PagerDuty, Teams and Discord posts (inbox-services.ts), and lists
 * what arrived, newest first, also as pages per service (inbox-pages.ts). Kept in memory, the
 * newest INBOX_MAX: it is a place to look, not a record.
 *
 *   POST   /_sandbox/inbox/slack     200 "ok" for `{ text, blocks? }` (as Slack answers), 400 otherwise
 *   POST   /_sandbox/inbox/webhook   204 when the signature verifies, 401 (and kept, marked) when not
 *   POST   /_sandbox/inbox/pagerduty | /teams | /discord   as each service answers (inbox-services.ts)
 *   GET    /_sandbox/inbox           { items, smtp, signingSecret, urls } (admin guard)
 *   GET    /_sandbox/inbox/pagerduty | /teams | /discord   what arrived, as HTML (admin guard)
 *   DELETE /_sandbox/inbox           empties it (admin guard)
 */
import { z } from "zod";
import { Webhook } from "standardwebhooks";
import {
  SANDBOX_INBOX_PATH as INBOX_PATH,
  SANDBOX_INBOX_SIGNING_SECRET as INBOX_SIGNING_SECRET,
  sandboxInboxUrls,
} from "../domain/alerts/sandbox-inbox";
import { requireAdmin } from "./auth";
import { HttpError, readJsonBody, readJsonText, sendJson, sendText, type Router } from "./http";
import { discordItems, inboxPage, pagerDutyItems, teamsItems } from "./inbox-pages";
import { addServiceRoutes } from "./inbox-services";
import type { AlertInbox } from "./inbox-items";

/** The inbox's path and secret, as the sandbox's CLI and tests name them. */
export { INBOX_PATH, INBOX_SIGNING_SECRET };

export { AlertInbox, INBOX_MAX, type InboxChannel, type InboxItem } from "./inbox-items";

const slackSchema = z.object({
  text: z.string().min(1, "text must not be empty"),
  blocks: z.array(z.unknown()).optional(),
});

function header(headers: NodeJS.Dict<string | string[]>, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}

/** The title of a verified alert payload ("alert.test: …"), or its type alone. */
function webhookTitle(body: string): string {
  try {
    const payload = JSON.parse(body) as { type?: unknown; data?: { headline?: unknown } };
    const type = typeof payload.type === "string" ? payload.type : "(no type)";
    return typeof payload.data?.headline === "string" ? `${type}: ${payload.data.headline}` : type;
  } catch {
    return "(not JSON)";
  }
}

export interface InboxDeps {
  inbox: AlertInbox;
  /** SANDBOX_ADMIN_TOKEN: the list is guarded as the admin routes are (auth.ts). */
  adminToken: string | undefined;
  /** Where the SMTP listener listens, once started. */
  smtp: () => { host: string; port: number } | null;
  /** The sandbox's own base URL, once it listens. */
  baseUrl: () => string;
}

export function addInboxRoutes(router: Router, { inbox, adminToken, smtp, baseUrl }: InboxDeps): void {
  router.add("POST", `${INBOX_PATH}/slack`, async ({ req, res }) => {
    const raw = await readJsonBody(req);
    const parsed = slackSchema.safeParse(raw);
    if (!parsed.success) {
      // Slack answers a malformed payload with 400 and a plain-text reason.
      sendText(
        res,
        400,
        "text/plain; charset=utf-8",
        "invalid_payload: a Slack message needs a non-empty text",
      );
      return;
    }
    inbox.add({
      channel: "slack",
      title: parsed.data.text,
      verified: null,
      problem: null,
      messageId: null,
      from: null,
      to: [],
      body: JSON.stringify(raw, null, 2),
    });
    sendText(res, 200, "text/plain; charset=utf-8", "ok");
  });

  router.add("POST", `${INBOX_PATH}/webhook`, async ({ req, res }) => {
    const body = await readJsonText(req);
    const headers = {
      "webhook-id": header(req.headers, "webhook-id"),
      "webhook-timestamp": header(req.headers, "webhook-timestamp"),
      "webhook-signature": header(req.headers, "webhook-signature"),
    };
    let problem: string | null = null;
    try {
      new Webhook(INBOX_SIGNING_SECRET).verify(body, headers);
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    inbox.add({
      channel: "webhook",
      title: webhookTitle(body),
      verified: problem === null,
      problem,
      messageId: headers["webhook-id"] || null,
      from: null,
      to: [],
      body,
    });
    if (problem) throw new HttpError(401, "invalid_signature", `The signature did not verify: ${problem}.`);
    res.writeHead(204).end();
  });

  addServiceRoutes(router, inbox);
  const pages = {
    pagerduty: [
      "PagerDuty (sandbox inbox)",
      "Alerts by dedup key, as PagerDuty lists them: a trigger opens one, a resolve with the same key closes it.",
      pagerDutyItems,
    ],
    teams: [
      "Microsoft Teams (sandbox inbox)",
      "Each Workflows post's Adaptive Card, newest first, roughly as a channel shows it.",
      teamsItems,
    ],
    discord: [
      "Discord (sandbox inbox)",
      "Each webhook message's embeds, newest first, and whom it would ping.",
      discordItems,
    ],
  } as const;
  for (const [channel, [title, intro, render]] of Object.entries(pages)) {
    router.add("GET", `${INBOX_PATH}/${channel}`, ({ req, res }) => {
      requireAdmin(req, adminToken);
      const html = inboxPage(title, intro, render(inbox.list().filter((item) => item.channel === channel)));
      sendText(res, 200, "text/html; charset=utf-8", html, {
        "cache-control": "no-store",
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      });
    });
  }

  router.add("GET", INBOX_PATH, ({ req, res }) => {
    requireAdmin(req, adminToken);
    sendJson(res, 200, {
      items: inbox.list(),
      smtp: smtp(),
      signingSecret: INBOX_SIGNING_SECRET,
      urls: sandboxInboxUrls(`${baseUrl()}${INBOX_PATH}`),
    });
  });

  router.add("DELETE", INBOX_PATH, ({ req, res }) => {
    requireAdmin(req, adminToken);
    inbox.clear();
    sendJson(res, 200, { items: [] });
  });
}
