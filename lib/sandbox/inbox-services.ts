/**
 * The inbox's stand-ins for PagerDuty, Microsoft Teams and Discord: each checks a post the way
 * its service does (roughly: the fields the console relies on, the service's limits) and answers
 * as it does, so a console sending to them meets the same answers as in production.
 *
 *   POST /_sandbox/inbox/pagerduty   Events API v2: 202 `{ status, message, dedup_key }`; 400 `{ status: "invalid event", message, errors }`
 *   POST /_sandbox/inbox/teams       a Workflows webhook: 202 (no body) for a message holding an Adaptive Card; 400 otherwise
 *   POST /_sandbox/inbox/discord     a Discord webhook: 204; 400 `{ code: 50035, message: "Invalid Form Body", errors }` past its limits
 */
import { randomUUID } from "node:crypto";
import { SANDBOX_INBOX_PATH as INBOX_PATH } from "../domain/alerts/sandbox-inbox";
import { readJsonText, sendJson, type Router } from "./http";
import type { AlertInbox } from "./inbox-items";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === "string" ? value : "");

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

const SEVERITIES = ["critical", "error", "warning", "info"];
const ACTIONS = ["trigger", "acknowledge", "resolve"];

/** What PagerDuty's Events API v2 would refuse in an event, in its own words. */
export function pagerDutyErrors(event: unknown): string[] {
  if (!isObject(event)) return ["Event object is not valid JSON"];
  const errors: string[] = [];
  if (!/^[A-Za-z0-9]{32}$/.test(text(event.routing_key))) errors.push("'routing_key' is invalid");
  if (!ACTIONS.includes(text(event.event_action))) errors.push("'event_action' is invalid");
  if (event.dedup_key !== undefined && (text(event.dedup_key) === "" || text(event.dedup_key).length > 255))
    errors.push("'dedup_key' is invalid");
  if (event.event_action !== "trigger") {
    if (event.dedup_key === undefined) errors.push("'dedup_key' is required");
    return errors;
  }
  const payload = isObject(event.payload) ? event.payload : null;
  if (!payload) return [...errors, "'payload' is missing or invalid"];
  const summary = text(payload.summary);
  if (summary === "" || summary.length > 1024) errors.push("'payload.summary' is missing or invalid");
  if (text(payload.source) === "") errors.push("'payload.source' is missing or invalid");
  if (!SEVERITIES.includes(text(payload.severity))) errors.push("'payload.severity' is missing or invalid");
  return errors;
}

/** What a Workflows webhook would refuse: not a message with an Adaptive Card attachment. */
export function teamsErrors(message: unknown): string[] {
  if (!isObject(message)) return ["The request content is not valid JSON."];
  const errors: string[] = [];
  if (message.type !== "message") errors.push("'type' must be \"message\".");
  const attachments = Array.isArray(message.attachments) ? message.attachments : [];
  const card = attachments.find(
    (a) => isObject(a) && a.contentType === "application/vnd.microsoft.card.adaptive" && isObject(a.content),
  ) as { content: Json } | undefined;
  if (!card)
    return [...errors, "'attachments' must hold an application/vnd.microsoft.card.adaptive attachment."];
  if (card.content.type !== "AdaptiveCard") errors.push("The card's 'type' must be \"AdaptiveCard\".");
  if (!/^1\.\d+$/.test(text(card.content.version))) errors.push("The card's 'version' must be 1.x.");
  if (!Array.isArray(card.content.body)) errors.push("The card's 'body' must be an array.");
  return errors;
}

const DISCORD = {
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  name: 256,
  value: 1024,
  footer: 2048,
  total: 6000,
};

/** What Discord would refuse in a webhook message, by the path of the field (its "Invalid Form Body" errors). */
export function discordErrors(message: unknown): Record<string, string> {
  if (!isObject(message)) return { body: "The request body contains invalid JSON." };
  const embeds = Array.isArray(message.embeds) ? message.embeds.filter(isObject) : [];
  const errors: Record<string, string> = {};
  if (text(message.content) === "" && embeds.length === 0) errors.content = "Cannot send an empty message";
  if (embeds.length > DISCORD.embeds) errors.embeds = `Must be ${DISCORD.embeds} or fewer in length.`;
  embeds.forEach((embed, i) => {
    const over = (field: string, value: string, max: number) => {
      if (value.length > max) errors[`embeds.${i}.${field}`] = `Must be ${max} or fewer in length.`;
    };
    over("title", text(embed.title), DISCORD.title);
    over("description", text(embed.description), DISCORD.description);
    over("footer.text", text(isObject(embed.footer) ? embed.footer.text : ""), DISCORD.footer);
    const fields = Array.isArray(embed.fields) ? embed.fields.filter(isObject) : [];
    if (fields.length > DISCORD.fields)
      errors[`embeds.${i}.fields`] = `Must be ${DISCORD.fields} or fewer in length.`;
    fields.forEach((field, j) => {
      if (text(field.name) === "") errors[`embeds.${i}.fields.${j}.name`] = "This field is required";
      if (text(field.value) === "") errors[`embeds.${i}.fields.${j}.value`] = "This field is required";
      over(`fields.${j}.name`, text(field.name), DISCORD.name);
      over(`fields.${j}.value`, text(field.value), DISCORD.value);
    });
    const total =
      text(embed.title).length +
      text(embed.description).length +
      text(isObject(embed.footer) ? embed.footer.text : "").length +
      fields.reduce((sum, f) => sum + text(f.name).length + text(f.value).length, 0);
    if (total > DISCORD.total) errors[`embeds.${i}`] = `Embed size exceeds maximum size of ${DISCORD.total}`;
  });
  return errors;
}

/** The first TextBlock's text of a Teams message's card: how Teams titles it in the channel. */
function teamsTitle(message: Json): string {
  const card = (message.attachments as Array<{ content?: { body?: unknown[] } }>)[0]?.content;
  const block = card?.body?.find((b) => isObject(b) && b.type === "TextBlock") as Json | undefined;
  return text(block?.text) || "(a card without text)";
}

export function addServiceRoutes(router: Router, inbox: AlertInbox): void {
  const keep = (
    channel: "pagerduty" | "teams" | "discord",
    title: string,
    messageId: string | null,
    body: string,
  ) => inbox.add({ channel, title, verified: null, problem: null, messageId, from: null, to: [], body });

  router.add("POST", `${INBOX_PATH}/pagerduty`, async ({ req, res }) => {
    const body = await readJsonText(req);
    const event = parse(body);
    const errors = pagerDutyErrors(event);
    if (errors.length > 0) {
      sendJson(res, 400, { status: "invalid event", message: "Event object is invalid", errors });
      return;
    }
    const valid = event as Json & { payload?: Json };
    const dedupKey = text(valid.dedup_key) || randomUUID().replaceAll("-", "");
    keep(
      "pagerduty",
      `${text(valid.event_action)}: ${text(valid.payload?.summary) || dedupKey}`,
      dedupKey,
      body,
    );
    sendJson(res, 202, { status: "success", message: "Event processed", dedup_key: dedupKey });
  });

  router.add("POST", `${INBOX_PATH}/teams`, async ({ req, res }) => {
    const body = await readJsonText(req);
    const message = parse(body);
    const errors = teamsErrors(message);
    if (errors.length > 0) {
      sendJson(res, 400, { error: { code: "InvalidRequestContent", message: errors.join(" ") } });
      return;
    }
    keep("teams", teamsTitle(message as Json), null, body);
    res.writeHead(202, { "content-length": "0" }).end();
  });

  router.add("POST", `${INBOX_PATH}/discord`, async ({ req, res }) => {
    const body = await readJsonText(req);
    const message = parse(body);
    const errors = discordErrors(message);
    if (Object.keys(errors).length > 0) {
      sendJson(res, 400, { code: 50035, message: "Invalid Form Body", errors });
      return;
    }
    const valid = message as Json & { embeds?: Json[] };
    keep("discord", text(valid.embeds?.[0]?.title) || text(valid.content), null, body);
    res.writeHead(204).end();
  });
}
