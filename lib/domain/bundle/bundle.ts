/**
 * A support bundle: what a customer (or a colleague) needs to fix a failing webhook, in one
 * redacted, render-ready object. The renderers (render-markdown, render-html, and JSON as is)
 * only lay it out: every text from the hub is redacted here, once, before any of them sees it.
 * It is read later, elsewhere: every time in it is absolute, in the zone asked, with the zone.
 */
import { countOf } from "@/lib/domain/format-count";
import type { Webhook, WebhookLog } from "@/lib/domain/hub-schemas";
import { statusMeaning } from "@/lib/domain/status-meaning";
import { compareWithLastSuccess, type ComparedLog, type Comparison } from "@/lib/domain/bundle/compare";
import type { Incident } from "@/lib/domain/bundle/incident";
import { createRedactor, type MaskedCount, type RedactorOptions } from "@/lib/domain/redact";
import { exactTime, spanWords } from "@/lib/domain/bundle/time-words";
import { changesSentence, changeText, type WebhookChanges } from "@/lib/domain/bundle/webhook-changes";
import type { FailureIssue } from "@/lib/domain/watch/failure-issue";

/** Sample bodies longer than this are cut (after redaction) in the bundle. */
export const SAMPLE_BODY_MAX_CHARS = 4_000;

export const BUNDLE_FORMATS = ["md", "html", "json"] as const;
export type BundleFormat = (typeof BUNDLE_FORMATS)[number];

export interface BundleLog {
  logId: string;
  messageId: string | null;
  statusCode: number;
  sentAt: string;
  sentAtText: string;
  body: string;
  /** The body was cut to SAMPLE_BODY_MAX_CHARS; `bodyLength` is its whole length. */
  truncated: boolean;
  bodyLength: number;
}

export interface SupportBundle {
  title: string;
  generatedAt: string;
  generatedText: string;
  timeZone: string;
  webhook: { id: string; endpoint: string; eventType: string; active: boolean; numberOfErrors: number };
  window: { from: string; to: string; text: string };
  /** `failed`: of the issue, for an issue's bundle (`otherFailed`: of other causes); else every failure. */
  counts: { attempts: number; succeeded: number; failed: number; otherFailed: number };
  /** The failure issue the bundle is about; null for a webhook's bundle over a window. */
  issue: {
    id: string;
    title: string;
    /** What its failures' bodies share (redacted). */
    signatureText: string;
    state: string;
    failures: number;
    text: string;
  } | null;
  codes: Array<{
    statusCode: number;
    title: string;
    count: number;
    cause: string;
    fromSpec: boolean;
    firstText: string;
    lastText: string;
  }>;
  streak: {
    length: number;
    /** The start is older than what was read. */
    atLeast: boolean;
    startedAt: string;
    startedText: string;
    lastAt: string;
    lastText: string;
    recovered: boolean;
    text: string;
  } | null;
  comparison: Comparison | null;
  /** The webhook's own changes between the last success and the failure (watch's timeline), in words. */
  changes: { sentence: string; lines: string[] } | null;
  samples: BundleLog[];
  messageIds: { ids: string[]; total: number };
  /** What the customer must fix, most frequent failure first. */
  fixes: string[];
  /** Where the history reading stopped short, said for a person; null when it read all it needed. */
  partial: string | null;
  /** What was masked, by kind and count. */
  masked: MaskedCount[];
}

export interface BundleInput {
  webhook: Webhook;
  incident: Incident;
  timeZone: string;
  now: number;
  partial: string | null;
  redaction: RedactorOptions;
  /** The failure issue the bundle is about (the incident was read with its focus). */
  issue?: FailureIssue | null;
  /** The webhook's changes between the comparison's two deliveries. */
  changes?: WebhookChanges | null;
}

/** Builds the bundle; throws a RedactionError (and builds nothing) when a pattern fails. */
export function buildBundle({
  webhook,
  incident,
  timeZone,
  now,
  partial,
  redaction,
  issue = null,
  changes = null,
}: BundleInput): SupportBundle {
  const redactor = createRedactor(redaction);
  const bodies = new Map<string, string>();
  const bodyOf = (log: WebhookLog) => {
    let body = bodies.get(log.id);
    if (body === undefined) {
      body = redactor.redact(log.responseBody);
      bodies.set(log.id, body);
    }
    return body;
  };
  const compared = (log: WebhookLog): ComparedLog => ({
    id: log.id,
    messageId: log.messageId ?? null,
    statusCode: log.statusCode,
    sendAt: log.sendAt,
    responseBody: bodyOf(log),
  });
  const at = (iso: string) => exactTime(Date.parse(iso), timeZone);
  const endpoint = redactor.redactUrl(webhook.endpoint);
  const eventType = redactor.redact(webhook.eventType);

  const wholeComparison = incident.newestFailure
    ? compareWithLastSuccess(
        compared(incident.newestFailure),
        incident.lastSuccess ? compared(incident.lastSuccess) : null,
        { now, timeZone, absolute: true },
      )
    : null;
  // Bodies too large to diff go in as raw bodies, cut like the samples.
  const comparison =
    wholeComparison?.diff?.kind === "too_large"
      ? {
          ...wholeComparison,
          failed: cutBody(wholeComparison.failed),
          lastSuccess: wholeComparison.lastSuccess && cutBody(wholeComparison.lastSuccess),
        }
      : wholeComparison;

  const samples = incident.samples.map((log): BundleLog => {
    const body = bodyOf(log);
    return {
      logId: log.id,
      messageId: log.messageId ?? null,
      statusCode: log.statusCode,
      sentAt: log.sendAt,
      sentAtText: at(log.sendAt),
      ...sampleOf(body),
    };
  });

  const codes = incident.codes.map((code) => {
    const meaning = statusMeaning(code.statusCode);
    return {
      statusCode: code.statusCode,
      title: meaning.title,
      count: code.count,
      cause: meaning.cause,
      fromSpec: meaning.fromSpec,
      firstText: at(code.first),
      lastText: at(code.last),
    };
  });

  const streak = incident.streak
    ? (() => {
        const { length, start, end, recovered } = incident.streak;
        const atLeast = incident.lastSuccess === null && partial !== null;
        const span = spanWords(Date.parse(end.sendAt) - Date.parse(start.sendAt));
        return {
          length,
          atLeast,
          startedAt: start.sendAt,
          startedText: at(start.sendAt),
          lastAt: end.sendAt,
          lastText: at(end.sendAt),
          recovered,
          text:
            `${atLeast ? "At least " : ""}${countOf(length, "failed attempt")} in a row ` +
            `from ${at(start.sendAt)}, over ${span}` +
            (recovered ? "; then deliveries succeeded again." : "; still failing at the latest attempt."),
        };
      })()
    : null;

  const fixes = [...new Set(incident.codes.map((code) => statusMeaning(code.statusCode)))].map(
    (meaning) => `${meaning.title}: ${meaning.nextStep}`,
  );

  const issueMeaning = issue ? statusMeaning(issue.statusCode) : null;
  const issueFailures = issue ? countOf(issue.failures, "failure") : "";
  return {
    title: `Support bundle: ${endpoint}${issueMeaning ? `, ${issueMeaning.title}` : ""}`,
    generatedAt: new Date(now).toISOString(),
    generatedText: exactTime(now, timeZone),
    timeZone,
    webhook: {
      id: webhook.id,
      endpoint,
      eventType,
      active: webhook.active,
      numberOfErrors: webhook.numberOfErrors,
    },
    window: {
      from: new Date(incident.from).toISOString(),
      to: new Date(incident.to).toISOString(),
      text: `${exactTime(incident.from, timeZone)} to ${exactTime(incident.to, timeZone)}`,
    },
    counts: {
      attempts: incident.attempts,
      succeeded: incident.succeeded,
      failed: incident.failed,
      otherFailed: incident.otherFailed,
    },
    issue:
      issue && issueMeaning
        ? {
            id: issue.id,
            title: issueMeaning.title,
            signatureText: redactor.redact(issue.signatureText),
            state: issue.state,
            failures: issue.failures,
            text:
              `One failure issue of this webhook: ${issueMeaning.title}, ${issueFailures} in all ` +
              `from ${at(issue.firstFailure.at)} to ${at(issue.lastFailure.at)} (${issue.state}). ` +
              "Only its failures are counted, sampled and compared here.",
          }
        : null,
    codes,
    streak,
    comparison,
    changes:
      changes && comparison?.lastSuccess
        ? {
            sentence: changesSentence(changes, comparison.lastSuccess.sendAt, at),
            lines: changes.known
              ? changes.events.map((event) => `${at(event.at)}: ${changeText(event)}`)
              : [],
          }
        : null,
    samples,
    messageIds: incident.messageIds,
    fixes,
    partial,
    masked: redactor.report(),
  };
}

/** `support-bundle-<webhook>-<from>.md`, safe as a file name. */
export function bundleFileName(webhookId: string, from: number, format: BundleFormat): string {
  const stamp = new Date(from).toISOString().slice(0, 16).replace(/[:T]/g, "-");
  return `support-bundle-${webhookId.slice(0, 8)}-${stamp}.${format}`;
}

/** Both bodies of a comparison too large to diff, as the bundle shows them raw (their start, when long). */
export function rawBodies(comparison: Comparison): Array<{ title: string; body: string; note: string }> {
  const sides: Array<[string, ComparedLog | null]> = [
    ["Last success", comparison.lastSuccess],
    ["This failure", comparison.failed],
  ];
  return sides.flatMap(([title, log]) =>
    log
      ? [
          {
            title,
            body: log.responseBody,
            note: log.bodyLength ? ` (first ${log.responseBody.length} of ${log.bodyLength} characters)` : "",
          },
        ]
      : [],
  );
}

/** A body as the bundle shows it raw: its start, up to SAMPLE_BODY_MAX_CHARS. */
function sampleOf(body: string): Pick<BundleLog, "body" | "truncated" | "bodyLength"> {
  const truncated = body.length > SAMPLE_BODY_MAX_CHARS;
  return {
    body: truncated ? body.slice(0, SAMPLE_BODY_MAX_CHARS) : body,
    truncated,
    bodyLength: body.length,
  };
}

function cutBody(log: ComparedLog): ComparedLog {
  const sample = sampleOf(log.responseBody);
  return sample.truncated ? { ...log, responseBody: sample.body, bodyLength: sample.bodyLength } : log;
}
