import "server-only";
import { Webhook } from "standardwebhooks";
import type { AlertMessage } from "@/lib/domain/alerts/message";
import { renderEmail } from "@/lib/domain/alerts/render-email";
import { renderJson } from "@/lib/domain/alerts/render-json";
import { renderSlack } from "@/lib/domain/alerts/render-slack";
import type { OpenDestination } from "@/lib/server/alerts/destinations";
import {
  OutboundRefused,
  postOutbound,
  sendMailOutbound,
  type OutboundPolicy,
} from "@/lib/server/alerts/outbound";

/**
 * One attempt at delivering an alert to one destination, in the destination's own shape (Slack
 * blocks, a signed Standard Webhooks JSON, an email), and what it means for the next: delivered,
 * worth retrying, failed for good, or refused by the outbound policy. The dispatcher decides
 * when (and whether) the next attempt comes.
 */

export interface AttemptDeps {
  policy: OutboundPolicy;
  /** SMTP_URL, SMTP_ALLOW_PLAINTEXT_AUTH and the sender address; email destinations fail without a URL. */
  smtp: { url: string | null; from: string; allowPlaintextAuth: boolean };
}

export interface AttemptOutcome {
  /** retry: the receiver's trouble (5xx, 408, 429, a timeout, no connection); failed: final. */
  result: "delivered" | "retry" | "failed" | "refused";
  /** The receiver's HTTP status (or SMTP reply code); null when none answered. */
  statusCode: number | null;
  response: string;
  error: string | null;
}

/** Statuses worth another try: the receiver's trouble, not a refusal of this message. */
const retryable = (status: number) => status >= 500 || status === 408 || status === 429;

async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  policy: OutboundPolicy,
): Promise<AttemptOutcome> {
  const answer = await postOutbound(url, body, headers, policy);
  if (answer.status >= 200 && answer.status < 300)
    return { result: "delivered", statusCode: answer.status, response: answer.body, error: null };
  return {
    result: retryable(answer.status) ? "retry" : "failed",
    statusCode: answer.status,
    response: answer.body,
    error: `the receiver answered ${answer.status}`,
  };
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
