/**
 * One alert message, as every destination receives it: what fired (or cleared), on which
 * webhook of which application, the counts, codes and samples behind it, since when, the likely
 * cause, what the customer must fix, and links back to the console. The renderers
 * (render-slack.ts, render-json.ts, render-email.ts) turn it into each destination's shape; the
 * JSON one is documented in docs/alerts.md. Every message is redacted as it is built
 * (`redactMessage`), so what the outbox stores and every destination receives is masked.
 */
import { countOf, formatCount } from "@/lib/domain/format-count";
import { createRedactor, type RedactorOptions } from "@/lib/domain/redact";

/** firing: a rule's incident starts; resolved: it cleared; summary: many webhooks at once; test: "Send test alert". */
export const ALERT_KINDS = ["firing", "resolved", "summary", "test"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export interface AlertWebhook {
  id: string;
  /** The watch's name (a customer's, say). */
  name: string;
  endpoint: string;
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
  /** Same for every copy of one alert, whichever instance sends it and however often: `webhook-id` of the signed JSON. */
  idempotencyKey: string;
  kind: AlertKind;
  /** When the alert was raised (ISO 8601). */
  at: string;
  rule: { id: string; name: string };
  application: { id: string; name: string };
  /** The webhook the alert is about; null for a summary (see `webhooks`). */
  webhook: AlertWebhook | null;
  /** A summary's webhooks, worst first; empty otherwise. */
  webhooks: AlertSummaryItem[];
  counts: { failures: number; attempts: number };
  /** Status codes of the failures, most frequent first (0 = no connection). */
  codes: Array<{ code: number; count: number }>;
  samples: AlertSample[];
  /** When the failing started (ISO 8601), null when unknown. */
  since: string | null;
  /** One line: what is wrong (or, resolved, what recovered). */
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

const KIND_WORDS: Record<AlertKind, string> = {
  firing: "Failing",
  resolved: "Recovered",
  summary: "Many webhooks failing",
  test: "Test alert",
};

/** The one-line title every destination leads with ("Failing: Acme orders — 5 failures in a row"). */
export function alertTitle(message: AlertMessage): string {
  const subject = message.webhook?.name ?? message.application.name;
  return `${KIND_WORDS[message.kind]}: ${subject} — ${message.headline}`;
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
  const endpoints = [message.webhook, ...message.webhooks.map((item) => item.webhook)]
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
    rule: { ...message.rule, name: text(message.rule.name) },
    application: { ...message.application, name: text(message.application.name) },
    webhook: message.webhook && webhook(message.webhook),
    webhooks: message.webhooks.map((item) => ({ ...item, webhook: webhook(item.webhook) })),
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
  rows.push(
    ["Likely cause", message.likelyCause],
    ["What the customer must fix", message.customerFix],
    ["Rule", message.rule.name],
  );
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
      idempotencyKey: input.idempotencyKey,
      kind: "test",
      at: input.at.toISOString(),
      rule: { id: "test", name: "Send test alert" },
      application: input.application,
      webhook: null,
      webhooks: [],
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
