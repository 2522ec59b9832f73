import { countOf } from "@/lib/domain/format-count";
import {
  alertFacts,
  alertTitle,
  codeText,
  namedWebhooks,
  type AlertMessage,
} from "@/lib/domain/alerts/message";

/**
 * An alert as a Slack incoming webhook takes it: `text` (the notification and the fallback) and
 * `blocks` (a header, the facts, the cause and the fix, a few samples, a button back to the
 * console), short enough to read on a phone. Every text from outside (names, endpoints, response
 * bodies) is escaped, so `<!channel>` or a `<url|link>` in it stays text.
 */

/** Slack's own escaping of mrkdwn and plain text: only these three characters are control characters. */
export function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Slack refuses a header over 150 characters and a section over 3000. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A code block that no backtick in the text can close early. */
function codeBlock(text: string): string {
  return "```" + slackEscape(text).replace(/`/g, "ˋ") + "```";
}

type Block = Record<string, unknown>;

const section = (text: string): Block => ({
  type: "section",
  text: { type: "mrkdwn", text: cut(text, 3000) },
});

export interface SlackPayload {
  text: string;
  blocks: Block[];
}

export function renderSlack(message: AlertMessage): SlackPayload {
  const title = alertTitle(message);
  const blocks: Block[] = [
    { type: "header", text: { type: "plain_text", text: cut(title, 150), emoji: false } },
    section(
      alertFacts(message)
        .map(([label, value]) => `*${label}:* ${slackEscape(value)}`)
        .join("\n"),
    ),
  ];
  for (const item of namedWebhooks(message).slice(0, 10)) {
    blocks.push(
      section(
        `• <${item.link}|${slackEscape(item.webhook.name)}>: ${countOf(item.failures, "failure")}` +
          (item.lastStatusCode === null ? "" : `, last ${codeText(item.lastStatusCode)}`),
      ),
    );
  }
  for (const sample of message.samples) {
    blocks.push(
      section(`*${codeText(sample.statusCode)}* at ${slackEscape(sample.sentAt)}\n${codeBlock(sample.body)}`),
    );
  }
  blocks.push({
    type: "actions",
    elements: [
      {
        type: "button",
        text: { type: "plain_text", text: "Open in the console" },
        url: message.links.webhook ?? message.links.console,
      },
    ],
  });
  blocks.push({
    type: "context",
    elements: [{ type: "mrkdwn", text: message.at }],
  });
  return { text: slackEscape(title), blocks };
}
