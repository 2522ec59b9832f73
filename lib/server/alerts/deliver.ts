import "server-only";
import { Webhook } from "standardwebhooks";
import { pagerDutyEventsUrl } from "@/lib/domain/alerts/destinations";
import type { AlertMessage } from "@/lib/domain/alerts/message";
import { renderDiscord } from "@/lib/domain/alerts/render-discord";
import { renderEmail } from "@/lib/domain/alerts/render-email";
import { renderJson } from "@/lib/domain/alerts/render-json";
import { renderPagerDuty } from "@/lib/domain/alerts/render-pagerduty";
import { renderSlack } from "@/lib/domain/alerts/render-slack";
import { renderTeams } from "@/lib/domain/alerts/render-teams";
import { parseRetryAfter } from "@/lib/domain/retry-after";
import type { OpenDestination } from "@/lib/server/alerts/destinations";
import {
  OutboundRefused,
  postOutbound,
  sendMailOutbound,
  type OutboundAnswer,
  type OutboundPolicy,
} from "@/lib/server/alerts/outbound";

/**
 * One attempt at delivering an alert to one destination, in the destination's own shape (Slack
 * blocks, a signed Standard Webhooks JSON, an email, a PagerDuty event, a Teams Adaptive Card, a
 * Discord embed), and what it means for the next: delivered, worth retrying (and not before when,
 * if the receiver said), failed for good, or refused by the outbound policy. The dispatcher
 * decides when (and whether) the next attempt comes.
 */

export interface AttemptDeps {
  policy: OutboundPolicy;
  /** SMTP_URL, SMTP_ALLOW_PLAINTEXT_AUTH and the sender address; email destinations fail without a URL. */
  smtp: { url: string | null; from: string; allowPlaintextAuth: boolean };
  /** ALERTS_PAGERDUTY_EVENTS_URL: where PagerDuty events go instead of their region's; null = the region's. */
  pagerDutyEventsUrl: string | null;
}

export interface AttemptOutcome {
  /** retry: the receiver's trouble (5xx, 408, 429, a timeout, no connection); failed: final. */
  result: "delivered" | "retry" | "failed" | "refused";
  /** The receiver's HTTP status (or SMTP reply code); null when none answered. */
  statusCode: number | null;
  response: string;
  error: string | null;
  /** retry: the receiver asked for no attempt before this long (Retry-After, Discord's `retry_after`). */
  retryAfterMs?: number;
}

/** Statuses worth another try: the receiver's trouble, not a refusal of this message. */
const retryable = (status: number) => status >= 500 || status === 408 || status === 429;

/** A JSON answer's field, if the answer is JSON and has it. */
function jsonField(body: string, field: string): unknown {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === "object" && parsed !== null
      ? (parsed as Record<string, unknown>)[field]
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How long the receiver asked to wait: Discord's `retry_after` (seconds, in its JSON answer to a
 * 429), else a `Retry-After` header.
 */
function retryAfterMs(answer: OutboundAnswer): number | undefined {
  const retryAfter = jsonField(answer.body, "retry_after");
  if (typeof retryAfter === "number" && retryAfter >= 0) return Math.ceil(retryAfter * 1000);
  const seconds = parseRetryAfter(answer.retryAfter);
  return seconds === null ? undefined : seconds * 1000;
}

/** What a final refusal says, with the receiver's own words where it gives them (PagerDuty's `message` and `errors`). */
function refusalText(answer: OutboundAnswer): string {
  const message = jsonField(answer.body, "message");
  const errors = jsonField(answer.body, "errors");
  const words = [
    typeof message === "string" ? message : null,
    ...(Array.isArray(errors) ? errors.filter((e): e is string => typeof e === "string") : []),
  ].filter(Boolean);
  return `the receiver answered ${answer.status}${words.length > 0 ? `: ${words.join("; ")}` : ""}`;
}

async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  policy: OutboundPolicy,
): Promise<AttemptOutcome> {
  const answer = await postOutbound(url, body, headers, policy);
  if (answer.status >= 200 && answer.status < 300)
    return { result: "delivered", statusCode: answer.status, response: answer.body, error: null };
  if (retryable(answer.status))
    return {
      result: "retry",
      statusCode: answer.status,
      response: answer.body,
      error: `the receiver answered ${answer.status}`,
      retryAfterMs: retryAfterMs(answer),
    };
  return { result: "failed", statusCode: answer.status, response: answer.body, error: refusalText(answer) };
}

async function send(
  message: AlertMessage,
  destination: OpenDestination,
  deps: AttemptDeps,
): Promise<AttemptOutcome> {
  const { secrets } = destination;
  switch (destination.kind) {
    case "slack":
      return postJson(secrets.url!, JSON.stringify(renderSlack(message)), {}, deps.policy);
    case "webhook": {
      const body = JSON.stringify(renderJson(message));
      const timestamp = new Date();
      const signature = new Webhook(secrets.signingSecret!).sign(message.idempotencyKey, timestamp, body);
      return postJson(
        secrets.url!,
        body,
        {
          "webhook-id": message.idempotencyKey,
          "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
          "webhook-signature": signature,
        },
        deps.policy,
      );
    }
    case "pagerduty": {
      const url = pagerDutyEventsUrl(secrets.region ?? "us", deps.pagerDutyEventsUrl);
      return postJson(url, JSON.stringify(renderPagerDuty(message, secrets.routingKey!)), {}, deps.policy);
    }
    case "teams":
      return postJson(secrets.url!, JSON.stringify(renderTeams(message)), {}, deps.policy);
    case "discord":
      return postJson(secrets.url!, JSON.stringify(renderDiscord(message)), {}, deps.policy);
    case "email": {
      if (!deps.smtp.url) {
        return {
          result: "failed",
          statusCode: null,
          response: "",
          error: "SMTP_URL is not set, so this console cannot send email. Set it and restart.",
        };
      }
      const { response } = await sendMailOutbound(
        { url: deps.smtp.url, allowPlaintextAuth: deps.smtp.allowPlaintextAuth },
        {
          from: deps.smtp.from,
          to: secrets.to!,
          ...renderEmail(message),
          messageId: `<${message.idempotencyKey}@webhook-console>`,
        },
        deps.policy,
      );
      return {
        result: "delivered",
        statusCode: Number(/^\d{3}/.exec(response)?.[0] ?? 250),
        response,
        error: null,
      };
    }
  }
}

/**
 * Makes one attempt; never throws. A refusal by the outbound policy is final (the address will
 * not become public by retrying); a timeout or a broken connection is worth another try.
 */
export async function attemptDelivery(
  message: AlertMessage,
  destination: OpenDestination,
  deps: AttemptDeps,
): Promise<AttemptOutcome> {
  try {
    return await send(message, destination, deps);
  } catch (error) {
    return {
      result: error instanceof OutboundRefused ? "refused" : "retry",
      statusCode: null,
      response: "",
      error: error instanceof Error ? error.message : String(error),
    };
  }
}
