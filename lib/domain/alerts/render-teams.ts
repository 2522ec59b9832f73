import { countOf } from "@/lib/domain/format-count";
import {
  alertFacts,
  alertTitle,
  codeText,
  namedWebhooks,
  type AlertKind,
  type AlertMessage,
} from "@/lib/domain/alerts/message";

/**
 * An alert as a Microsoft Teams Workflows webhook takes it ("Post to a channel when a webhook
 * request is received"): a message with one Adaptive Card (1.4) holding the title, the facts, the
 * webhooks of a summary, the samples and a button back to the console. Text from outside goes
 * where the card reads no markdown (TextRun), or with the markdown it reads escaped (the title and
 * the facts), so a `[link](https://…)` in a name stays text.
 */

export const ADAPTIVE_CARD_CONTENT_TYPE = "application/vnd.microsoft.card.adaptive";

type Element = Record<string, unknown>;

export interface TeamsMessage {
  type: "message";
  attachments: Array<{
    contentType: typeof ADAPTIVE_CARD_CONTENT_TYPE;
    contentUrl: null;
    content: {
      $schema: string;
      type: "AdaptiveCard";
      version: string;
      msteams: { width: "Full" };
      body: Element[];
      actions: Element[];
    };
  }>;
}

/** The title's colour, by kind (Adaptive Cards' named colours). */
const COLOURS: Record<AlertKind, string> = {
  firing: "Attention",
  updated: "Warning",
  recovered: "Good",
  test: "Accent",
};

/** Webhooks of a summary named one by one, as in Slack. */
const WEBHOOKS_LISTED = 10;

/** The characters Teams' card markdown reads as links, emphasis or code, escaped. */
export function teamsEscape(text: string): string {
  return text.replace(/[\\`*_[\]]/g, "\\$&");
}

const run = (text: string, style: Element = {}): Element => ({ type: "TextRun", text, ...style });
const rich = (...inlines: Element[]): Element => ({ type: "RichTextBlock", inlines });

export function renderTeams(message: AlertMessage): TeamsMessage {
  const link = message.links.webhook ?? message.links.console;
  const body: Element[] = [
    {
      type: "TextBlock",
      text: teamsEscape(alertTitle(message)),
      size: "Medium",
      weight: "Bolder",
      color: COLOURS[message.kind],
      style: "heading",
      wrap: true,
    },
    {
      type: "FactSet",
      facts: alertFacts(message).map(([title, value]) => ({
        title: teamsEscape(title),
        value: teamsEscape(value),
      })),
    },
  ];
  const named = namedWebhooks(message).slice(0, WEBHOOKS_LISTED);
  for (const item of named) {
    const last = item.lastStatusCode === null ? "" : `, last ${codeText(item.lastStatusCode)}`;
    body.push(
      rich(
        run(item.webhook.name, {
          weight: "Bolder",
          selectAction: { type: "Action.OpenUrl", url: item.link },
        }),
        run(`: ${countOf(item.failures, "failure")}${last}`),
      ),
    );
  }
  for (const sample of message.samples) {
    body.push(
      rich(run(`${codeText(sample.statusCode)} at ${sample.sentAt}`, { weight: "Bolder" })),
      rich(run(sample.body, { fontType: "Monospace" })),
    );
  }
  // The incident's id, as Discord's footer and the other kinds carry it: the same from firing to recovery.
  const footer = message.incident
    ? `Incident ${message.incident.id} · ${message.at}`
    : `Test alert · ${message.at}`;
  body.push({ type: "TextBlock", text: footer, size: "Small", isSubtle: true, wrap: true });
  return {
    type: "message",
    attachments: [
      {
        contentType: ADAPTIVE_CARD_CONTENT_TYPE,
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          msteams: { width: "Full" },
          body,
          actions: [{ type: "Action.OpenUrl", title: "Open in the console", url: link }],
        },
      },
    ],
  };
}
