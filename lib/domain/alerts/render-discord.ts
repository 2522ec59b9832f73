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
 * An alert as a Discord webhook takes it: one embed (title, description, colour by kind, fields,
 * a link back, the time), within Discord's limits. `allowed_mentions` parses nothing, so no text
 * from a response body can ping `@everyone`, a user or a role; the text itself is neutralised too
 * (a zero-width space after the `@` of `@everyone`/`@here` and the `<` of `<@…>`/`<#…>`), and its
 * markdown escaped, so a `[link](https://…)` in a name stays text.
 */

export interface DiscordEmbed {
  title: string;
  description: string;
  url: string;
  color: number;
  timestamp: string;
  fields: Array<{ name: string; value: string; inline: boolean }>;
  footer: { text: string };
}

export interface DiscordPayload {
  allowed_mentions: { parse: [] };
  embeds: [DiscordEmbed];
}

/** The embed's colour bar, by kind: red, amber, green, blue. */
export const DISCORD_COLOURS: Record<AlertKind, number> = {
  firing: 0xd92d20,
  updated: 0xf79009,
  recovered: 0x12b76a,
  test: 0x2e90fa,
};

/** Discord's limits on one embed (it refuses the message past them). */
export const DISCORD_LIMITS = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  /** Every title, description, field name and value and footer together. */
  total: 6000,
} as const;

/** Webhooks of a summary named one by one, as in Slack. */
const WEBHOOKS_LISTED = 10;
const ZERO_WIDTH_SPACE = "\u200b";

/** Mentions turned into text: `@everyone`, `@here`, `<@id>`, `<@&role>`, `<#channel>` no longer parse. */
export function neutraliseMentions(text: string): string {
  return text
    .replace(/@(everyone|here)/gi, `@${ZERO_WIDTH_SPACE}$1`)
    .replace(/<([@#])/g, `<${ZERO_WIDTH_SPACE}$1`);
}

/** Outside text for Discord's markdown: mentions neutralised, markup characters escaped. */
export function discordEscape(text: string): string {
  return neutraliseMentions(text).replace(/[\\*_~`|[\]>#]/g, "\\$&");
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A code block that no backtick in the text can close early. */
function codeBlock(text: string, max: number): string {
  return "```\n" + cut(neutraliseMentions(text).replace(/`/g, "ˋ"), max - 8) + "\n```";
}

const field = (name: string, value: string, inline = false) => ({
  name: cut(name, DISCORD_LIMITS.fieldName),
  value: cut(value, DISCORD_LIMITS.fieldValue),
  inline,
});

/** The characters Discord counts against the embed's total. */
function embedSize(embed: DiscordEmbed): number {
  return (
    embed.title.length +
    embed.description.length +
    embed.footer.text.length +
    embed.fields.reduce((sum, f) => sum + f.name.length + f.value.length, 0)
  );
}

export function renderDiscord(message: AlertMessage): DiscordPayload {
  const facts = alertFacts(message).map(([name, value]) =>
    field(name, discordEscape(value) || "–", value.length <= 40),
  );
  const webhooks = namedWebhooks(message)
    .slice(0, WEBHOOKS_LISTED)
    .map((item) =>
      field(
        discordEscape(item.webhook.name),
        `[${countOf(item.failures, "failure")}](${item.link})` +
          (item.lastStatusCode === null ? "" : `, last ${codeText(item.lastStatusCode)}`),
      ),
    );
  const samples = message.samples.map((sample) =>
    field(
      `${codeText(sample.statusCode)} at ${sample.sentAt}`,
      codeBlock(sample.body, DISCORD_LIMITS.fieldValue),
    ),
  );
  const embed: DiscordEmbed = {
    title: cut(discordEscape(alertTitle(message)), DISCORD_LIMITS.title),
    description: cut(discordEscape(message.headline), DISCORD_LIMITS.description),
    url: message.links.webhook ?? message.links.console,
    color: DISCORD_COLOURS[message.kind],
    timestamp: message.at,
    fields: [...facts, ...webhooks, ...samples].slice(0, DISCORD_LIMITS.fields),
    footer: { text: message.incident ? `Incident ${message.incident.id}` : "Test alert" },
  };
  // Over the total, the last fields go first: samples, then the webhooks listed.
  while (embedSize(embed) > DISCORD_LIMITS.total && embed.fields.length > 0) embed.fields.pop();
  return { allowed_mentions: { parse: [] }, embeds: [embed] };
}
