/**
 * The inbox's pages: what arrived at its PagerDuty, Teams and Discord stand-ins, roughly as each
 * service shows it (PagerDuty's alerts by dedup key with their events, Teams' cards, Discord's
 * embeds), as plain server-rendered HTML. Every text from a post is escaped and only http(s)
 * links are made, so a hostile alert stays text.
 *
 *   GET /_sandbox/inbox/pagerduty | /teams | /discord   (admin guard, as GET /_sandbox/inbox)
 */
import { escapeHtml } from "../domain/bundle/render-html";
import type { InboxItem } from "./inbox-items";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === "string" ? value : "");
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

function parse(body: string): Json {
  try {
    const parsed: unknown = JSON.parse(body);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** A link only when it is http(s); otherwise its text alone. */
function link(href: unknown, label: string): string {
  const url = text(href);
  return /^https?:\/\//i.test(url) ? `<a href="${escapeHtml(url)}">${label}</a>` : label;
}

const time = (iso: string) => `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso)}</time>`;

/** The page around a service's items: one style, no script. */
export function inboxPage(title: string, intro: string, items: string[]): string {
  return [
    "<!DOCTYPE html>",
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`,
    `<body style="font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#111">`,
    `<h1 style="font-size:1.3rem">${escapeHtml(title)}</h1>`,
    `<p style="color:#555">${escapeHtml(intro)}</p>`,
    items.length > 0 ? items.join("\n") : "<p>Nothing has arrived yet.</p>",
    "</body></html>",
  ].join("\n");
}

const CARD = "border:1px solid #ddd;border-radius:6px;padding:0.75rem 1rem;margin:1rem 0";

/** PagerDuty: one alert per dedup key, its state from its latest event, the events below. */
export function pagerDutyItems(items: readonly InboxItem[]): string[] {
  const alerts = new Map<string, Array<{ item: InboxItem; event: Json }>>();
  for (const item of [...items].reverse()) {
    const key = item.messageId ?? item.id;
    alerts.set(key, [...(alerts.get(key) ?? []), { item, event: parse(item.body) }]);
  }
  const STATES: Record<string, string> = {
    trigger: "Triggered",
    acknowledge: "Acknowledged",
    resolve: "Resolved",
  };
  return [...alerts.entries()].reverse().map(([key, events]) => {
    const last = events[events.length - 1]!;
    const trigger = [...events].reverse().find(({ event }) => event.event_action === "trigger")?.event ?? {};
    const payload = isObject(trigger.payload) ? trigger.payload : {};
    const details = isObject(payload.custom_details) ? payload.custom_details : {};
    const state = STATES[text(last.event.event_action)] ?? text(last.event.event_action);
    const colour = state === "Resolved" ? "#12b76a" : "#d92d20";
    return [
      `<article style="${CARD}">`,
      `<p><strong style="color:${colour}">${escapeHtml(state)}</strong> · severity ${escapeHtml(text(payload.severity))} · ` +
        `dedup key <code>${escapeHtml(key)}</code></p>`,
      `<h2 style="font-size:1.05rem;margin:0.25rem 0">${escapeHtml(text(payload.summary))}</h2>`,
      `<p>Source: ${escapeHtml(text(payload.source))} · Component: ${escapeHtml(text(payload.component))} · Group: ${escapeHtml(text(payload.group))}</p>`,
      `<dl>${Object.entries(details)
        .map(
          ([name, value]) =>
            `<dt style="font-weight:600">${escapeHtml(name)}</dt><dd style="white-space:pre-wrap;margin:0 0 0.4rem 1rem">` +
            `${escapeHtml(typeof value === "string" ? value : JSON.stringify(value, null, 2))}</dd>`,
        )
        .join("")}</dl>`,
      `<p>${list(trigger.links)
        .map((l) => link(l.href, escapeHtml(text(l.text) || text(l.href))))
        .join(" · ")}</p>`,
      `<ol>${events.map(({ item, event }) => `<li>${escapeHtml(text(event.event_action))} at ${time(item.receivedAt)}</li>`).join("")}</ol>`,
      "</article>",
    ].join("\n");
  });
}

/** Teams shows its card markdown's escapes as the characters themselves. */
const teamsText = (value: unknown) => escapeHtml(text(value).replace(/\\([\\`*_[\]])/g, "$1"));

function teamsElement(element: Json): string {
  switch (element.type) {
    case "TextBlock": {
      const colour = (
        { Attention: "#d92d20", Warning: "#b54708", Good: "#067647", Accent: "#175cd3" } as Record<
          string,
          string
        >
      )[text(element.color)];
      const style = [
        element.weight === "Bolder" ? "font-weight:700" : "",
        element.size === "Medium" ? "font-size:1.1rem" : element.size === "Small" ? "font-size:0.8rem" : "",
        element.isSubtle ? "color:#666" : colour ? `color:${colour}` : "",
      ].join(";");
      return `<p style="${style}">${teamsText(element.text)}</p>`;
    }
    case "FactSet":
      return `<table>${list(element.facts)
        .map(
          (fact) =>
            `<tr><th align="left" valign="top" style="padding-right:1rem">${teamsText(fact.title)}</th><td>${teamsText(fact.value)}</td></tr>`,
        )
        .join("")}</table>`;
    case "RichTextBlock":
      // A TextRun's text is never markdown.
      return `<p style="white-space:pre-wrap">${list(element.inlines)
        .map((run) => {
          let html = escapeHtml(text(run.text));
          if (run.fontType === "Monospace") html = `<code>${html}</code>`;
          if (run.weight === "Bolder") html = `<strong>${html}</strong>`;
          const action = isObject(run.selectAction) ? run.selectAction : null;
          return action?.type === "Action.OpenUrl" ? link(action.url, html) : html;
        })
        .join("")}</p>`;
    default:
      return `<p style="color:#666">(${escapeHtml(text(element.type))} not shown)</p>`;
  }
}

const button = (title: string) =>
  `<span style="border:1px solid #999;border-radius:4px;padding:0.2rem 0.6rem">${escapeHtml(title)}</span>`;

/** Teams: each message's Adaptive Card, its body and its buttons. */
export function teamsItems(items: readonly InboxItem[]): string[] {
  return items.map((item) => {
    const message = parse(item.body);
    const card = list(message.attachments).map((a) => (isObject(a.content) ? a.content : {}))[0] ?? {};
    const actions = list(card.actions).filter((action) => action.type === "Action.OpenUrl");
    return [
      `<article style="${CARD}">`,
      `<p style="color:#666;font-size:0.8rem">Workflows · ${time(item.receivedAt)}</p>`,
      ...list(card.body).map(teamsElement),
      `<p>${actions.map((action) => link(action.url, button(text(action.title)))).join(" ")}</p>`,
      "</article>",
    ].join("\n");
  });
}

/**
 * Discord's markdown, roughly: `[text](https://…)` links, ``` code blocks, escapes shown as the
 * characters; everything else as text.
 */
function discordText(value: unknown): string {
  const raw = text(value);
  const code = /^```\n?([\s\S]*?)\n?```$/.exec(raw);
  if (code)
    return `<pre style="white-space:pre-wrap;background:#f4f4f5;padding:0.4rem">${escapeHtml(code[1]!)}</pre>`;
  const plain = (part: string) => escapeHtml(part.replace(/\\([\\*_~`|[\]>#])/g, "$1"));
  let html = "";
  let at = 0;
  for (const match of raw.matchAll(/(?<!\\)\[([^\]]*?)(?<!\\)\]\((https?:\/\/[^\s)]+)\)/g)) {
    html += plain(raw.slice(at, match.index)) + link(match[2], plain(match[1]!));
    at = match.index + match[0].length;
  }
  return html + plain(raw.slice(at));
}

/** Whom a Discord message would ping: mentions parse in `content` only, and only what `allowed_mentions` lets through. */
export function discordPings(message: Json): string[] {
  const parse =
    isObject(message.allowed_mentions) && Array.isArray(message.allowed_mentions.parse)
      ? (message.allowed_mentions.parse as unknown[])
      : ["everyone", "users", "roles"];
  const content = text(message.content);
  const pings = [];
  if (parse.includes("everyone")) pings.push(...(content.match(/@(everyone|here)/g) ?? []));
  if (parse.includes("users")) pings.push(...(content.match(/<@!?\d+>/g) ?? []));
  if (parse.includes("roles")) pings.push(...(content.match(/<@&\d+>/g) ?? []));
  return pings;
}

/** Discord: each message's embeds, with their colour bar, and whom it would ping. */
export function discordItems(items: readonly InboxItem[]): string[] {
  return items.map((item) => {
    const message = parse(item.body);
    const pings = discordPings(message);
    const pingText =
      pings.length > 0
        ? `<strong style="color:#d92d20">pings ${escapeHtml(pings.join(", "))}</strong>`
        : "pings nobody";
    const embeds = list(message.embeds).map((embed) => {
      const colour = `#${(Number(embed.color) || 0).toString(16).padStart(6, "0").slice(-6)}`;
      return [
        `<div style="border-left:4px solid ${colour};background:#f9fafb;padding:0.5rem 0.75rem;margin:0.5rem 0">`,
        `<p style="font-weight:700">${link(embed.url, discordText(embed.title))}</p>`,
        `<p>${discordText(embed.description)}</p>`,
        `<dl>${list(embed.fields)
          .map(
            (field) =>
              `<dt style="font-weight:600">${discordText(field.name)}</dt><dd style="margin:0 0 0.4rem 1rem">${discordText(field.value)}</dd>`,
          )
          .join("")}</dl>`,
        `<p style="color:#666;font-size:0.8rem">${escapeHtml(text(isObject(embed.footer) ? embed.footer.text : ""))} · ${time(text(embed.timestamp))}</p>`,
        "</div>",
      ].join("\n");
    });
    return [
      `<article style="${CARD}">`,
      `<p style="color:#666;font-size:0.8rem">${time(item.receivedAt)} · ${pingText}</p>`,
      text(message.content) ? `<p>${discordText(message.content)}</p>` : "",
      ...embeds,
      "</article>",
    ].join("\n");
  });
}
