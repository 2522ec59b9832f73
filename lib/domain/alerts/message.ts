/**
 * One alert message, as every destination receives it: which incident (one per webhook from
 * firing to recovery, updates in between), the conditions that hold on which webhook of which
 * application, the counts, codes and samples behind them, since when, the likely cause, what the
 * customer must fix, and links back to the console. The renderers (render-slack.ts,
 * render-json.ts, render-email.ts) turn it into each destination's shape; the JSON one is
 * documented in docs/alerts.md. Every message is redacted as it is built (`redactMessage`), so
 * what the outbox stores and every destination receives is masked.
 */
import { countOf, formatCount } from "@/lib/domain/format-count";
import { createRedactor, type RedactorOptions } from "@/lib/domain/redact";

/**
 * firing: an incident starts; updated: it got worse (or, a summary, webhooks joined it);
 * recovered: it ended; test: "Send test alert".
 */
export const ALERT_KINDS = ["firing", "updated", "recovered", "test"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The payload's schema version (docs/alerts.md): a change that removes or redefines a field is a new one. */
export const ALERT_SCHEMA_VERSION = 2;

/** What an incident is about: one webhook, a whole application (its key rejected), or many webhooks at once. */
export type IncidentScope = "webhook" | "application" | "summary";

export interface AlertWebhook {
  id: string;
  /** The watch's name (a customer's, say). */
  name: string;
  endpoint: string;
}

/** The incident an alert belongs to: its id is the same from firing to recovery. */
export interface AlertIncident {
  id: string;
  scope: IncidentScope;
  openedAt: string;
}

/** One condition that holds on the incident's webhook. */
export interface AlertCondition {
  rule: { id: string; name: string };
  headline: string;
  since: string | null;
  counts: { failures: number; attempts: number };
  codes: Array<{ code: number; count: number }>;
}

/** One failed delivery behind the alert; its response body is cut to SAMPLE_BODY_MAX once redacted. */
export interface AlertSample {
  logId: string;
  statusCode: number;
  sentAt: string;
  body: string;
}

/** A webhook inside a summary: the detail of one of the many failing at once. */
export interface AlertSummaryItem {
  webhook: AlertWebhook;
  failures: number;
  lastStatusCode: number | null;
  link: string;
}

export interface AlertMessage {
  /** ALERT_SCHEMA_VERSION. */
  version: number;
  /** Same for every copy of one alert, whichever instance sends it and however often: `webhook-id` of the signed JSON. */
  idempotencyKey: string;
  kind: AlertKind;
  /** When the alert was raised (ISO 8601). */
  at: string;
  /** null for a test alert. */
  incident: AlertIncident | null;
  /** What holds (firing, updated) or held last (recovered), in the rules' order; none for a summary or a test. */
  conditions: AlertCondition[];
  application: { id: string; name: string };
  /** The webhook the alert is about; null for a summary (see `webhooks`) or an application-wide incident. */
  webhook: AlertWebhook | null;
  /** A summary's webhooks, worst first; empty otherwise. */
  webhooks: AlertSummaryItem[];
  /** A summary's update: the webhooks that joined it since its last alert; empty otherwise. */
  added: AlertSummaryItem[];
  counts: { failures: number; attempts: number };
  /** Status codes of the failures, most frequent first (0 = no connection). */
  codes: Array<{ code: number; count: number }>;
  samples: AlertSample[];
  /** When the failing started (ISO 8601), null when unknown. */
  since: string | null;
  /** One line: what is wrong (or, recovered, what recovered). */
  headline: string;
  likelyCause: string;
  /** What the customer must change on their side: the API has no retry, so the fix is theirs. */
  customerFix: string;
  links: { console: string; webhook: string | null };
}

/** Longest response body a sample carries. */
export const SAMPLE_BODY_MAX = 500;

/** Most samples one message carries. */
export const SAMPLES_MAX = 3;

function kindWord(message: AlertMessage): string {
  const summary = message.incident?.scope === "summary";
  switch (message.kind) {
    case "firing":
      return summary ? "Many webhooks failing" : "Failing";
    case "updated":
      if (!summary) return "Worse";
      return message.added.length > 0 ? "More webhooks failing" : "Update";
    case "recovered":
      return "Recovered";
    case "test":
      return "Test alert";
  }
}

/** The one-line title every destination leads with ("Failing: Acme orders — 5 failures in a row"). */
export function alertTitle(message: AlertMessage): string {
  const subject = message.webhook?.name ?? message.application.name;
  return `${kindWord(message)}: ${subject} — ${message.headline}`;
}

/**
 * The webhooks a summary's alert names one by one: an update's added ones (a destination that
 * cannot edit its first message gets a follow-up naming them), else all of them.
 */
export function namedWebhooks(message: AlertMessage): AlertSummaryItem[] {
  return message.kind === "updated" && message.added.length > 0 ? message.added : message.webhooks;
}

/** A body cut to SAMPLE_BODY_MAX characters, marked when cut. */
export function sampleBody(body: string): string {
  return body.length <= SAMPLE_BODY_MAX ? body : `${body.slice(0, SAMPLE_BODY_MAX)}… (cut)`;
}

/** "No connection" for 0, else the code. */
export function codeText(code: number): string {
  return code === 0 ? "0 (no connection)" : String(code);
}

/**
 * The message as it may leave the console: every text in it through the one redaction
 * (lib/domain/redact.ts), endpoints with their credentials and query values masked too (also
 * where a name repeats one: a watch is named after its endpoint unless someone names it), and
 * sample bodies cut after it (a secret cut in half would no longer be found). Ids, times and the
 * links back to the console are its own and stay.
 */
export function redactMessage(message: AlertMessage, options: RedactorOptions = {}): AlertMessage {
  const redactor = createRedactor(options);
  const endpoints = [message.webhook, ...[...message.webhooks, ...message.added].map((item) => item.webhook)]
    .flatMap((hook) => (hook ? [hook.endpoint] : []))
    .sort((a, b) => b.length - a.length)
    .map((endpoint) => [endpoint, redactor.redactUrl(endpoint)] as const);
  const text = (value: string) =>
    redactor.redact(endpoints.reduce((out, [endpoint, masked]) => out.replaceAll(endpoint, masked), value));
  const webhook = (hook: AlertWebhook): AlertWebhook => ({
    ...hook,
    name: text(hook.name),
    endpoint: redactor.redactUrl(hook.endpoint),
  });
  return {
    ...message,
    application: { ...message.application, name: text(message.application.name) },
    webhook: message.webhook && webhook(message.webhook),
    webhooks: message.webhooks.map((item) => ({ ...item, webhook: webhook(item.webhook) })),
    added: message.added.map((item) => ({ ...item, webhook: webhook(item.webhook) })),
    conditions: message.conditions.map((condition) => ({ ...condition, headline: text(condition.headline) })),
    samples: message.samples.map((sample) => ({ ...sample, body: sampleBody(text(sample.body)) })),
    headline: text(message.headline),
    likelyCause: text(message.likelyCause),
    customerFix: text(message.customerFix),
  };
}

/** The facts of an alert as label/value pairs, in the order every destination shows them. */
export function alertFacts(message: AlertMessage): Array<[string, string]> {
  const rows: Array<[string, string]> = [["Application", message.application.name]];
  if (message.webhook) {
    rows.push(["Webhook", message.webhook.name], ["Endpoint", message.webhook.endpoint]);
  }
  if (message.since) rows.push(["Since", message.since]);
  if (message.kind !== "test") {
    rows.push([
      "Failures",
      `${formatCount(message.counts.failures)} of ${countOf(message.counts.attempts, "attempt")}`,
    ]);
  }
  if (message.codes.length > 0) {
    rows.push(["Codes", message.codes.map(({ code, count }) => `${codeText(code)} ×${count}`).join(", ")]);
  }
  for (const condition of message.conditions) rows.push([condition.rule.name, condition.headline]);
  if (message.added.length > 0) rows.push(["Added", countOf(message.added.length, "webhook")]);
  rows.push(["Likely cause", message.likelyCause], ["What the customer must fix", message.customerFix]);
  return rows;
}

/**
 * The message "Send test alert" sends: shaped like a real firing alert (so a receiver can be
 * built against it), marked `test`, and saying plainly that nothing is failing.
 */
export function testAlert(input: {
  idempotencyKey: string;
  at: Date;
  application: { id: string; name: string };
  destinationLabel: string;
  consoleUrl: string;
  /** REDACT_PATTERNS, masked as in every alert. */
  redactPatterns?: readonly string[];
}): AlertMessage {
  return redactMessage(
    {
      version: ALERT_SCHEMA_VERSION,
      idempotencyKey: input.idempotencyKey,
      kind: "test",
      at: input.at.toISOString(),
      incident: null,
      conditions: [],
      application: input.application,
      webhook: null,
      webhooks: [],
      added: [],
      counts: { failures: 0, attempts: 0 },
      codes: [],
      samples: [],
      since: null,
      headline: `"${input.destinationLabel}" receives the console's alerts`,
      likelyCause: "Nothing is failing: a person pressed Send test alert in the console.",
      customerFix: "Nothing to fix. Real alerts arrive here in this same shape.",
      links: { console: input.consoleUrl, webhook: null },
    },
    { patterns: input.redactPatterns },
  );
}
