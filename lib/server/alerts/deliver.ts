import "server-only";
import pLimit from "p-limit";
import pRetry, { AbortError } from "p-retry";
import { Webhook } from "standardwebhooks";
import type { DeliveryView } from "@/lib/domain/alerts/destinations";
import { alertTitle, type AlertMessage } from "@/lib/domain/alerts/message";
import { renderEmail } from "@/lib/domain/alerts/render-email";
import { renderJson } from "@/lib/domain/alerts/render-json";
import { renderSlack } from "@/lib/domain/alerts/render-slack";
import type { StoreContext } from "@/lib/server/watch/context";
import {
  recordAttempt,
  startDelivery,
  type AttemptRecord,
  type OpenDestination,
} from "@/lib/server/alerts/destinations";
import {
  OutboundRefused,
  postOutbound,
  sendMailOutbound,
  type OutboundPolicy,
} from "@/lib/server/alerts/outbound";

/**
 * Delivers one alert message to destinations: each in its own retried send (p-retry, backoff),
 * at most DESTINATIONS_AT_ONCE at a time, so a destination that hangs or fails delays no other.
 * Every attempt is written to the delivery log before the next begins.
 */

export interface DeliveryDeps {
  ctx: StoreContext;
  policy: OutboundPolicy;
  /** SMTP_URL and the sender address; email destinations fail without a URL. */
  smtp: { url: string | null; from: string };
  /** Attempts per delivery: the first and its retries. */
  attempts: number;
  /** Wait before the first retry; each next one waits twice as long (with jitter). */
  backoffMs: number;
}

const DESTINATIONS_AT_ONCE = 8;

/** A failed attempt: the receiver's status (when it answered) and the start of its answer. */
class AttemptFailed extends Error {
  constructor(
    message: string,
    readonly statusCode: number | null,
    readonly response: string,
  ) {
    super(message);
    this.name = "AttemptFailed";
  }
}

/** Statuses worth another try: the receiver's trouble, not a refusal of this message. */
const retryable = (status: number) => status >= 500 || status === 408 || status === 429;

interface Answer {
  statusCode: number;
  response: string;
}

async function postJson(url: string, body: string, headers: Record<string, string>, policy: OutboundPolicy) {
  const answer = await postOutbound(url, body, headers, policy);
  if (answer.status >= 200 && answer.status < 300)
    return { statusCode: answer.status, response: answer.body };
  const failed = new AttemptFailed(`the receiver answered ${answer.status}`, answer.status, answer.body);
  throw retryable(answer.status) ? failed : new AbortError(failed);
}

/** One attempt at one destination, in its own shape. */
async function attempt(
  message: AlertMessage,
  destination: OpenDestination,
  deps: DeliveryDeps,
): Promise<Answer> {
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
        throw new AbortError(
          new AttemptFailed(
            "SMTP_URL is not set, so this console cannot send email. Set it and restart.",
            null,
            "",
          ),
        );
      }
      const { response } = await sendMailOutbound(
        deps.smtp.url,
        {
          from: deps.smtp.from,
          to: secrets.to!,
          ...renderEmail(message),
          messageId: `<${message.idempotencyKey}@webhook-console>`,
        },
        deps.policy,
      );
      return { statusCode: Number(/^\d{3}/.exec(response)?.[0] ?? 250), response };
    }
  }
}

/** What the log keeps of a failed attempt. */
function failureRecord(error: unknown, attempts: number, final: boolean): AttemptRecord {
  const cause = error instanceof AbortError ? error.originalError : error;
  const refused = cause instanceof OutboundRefused;
  return {
    state: refused ? "refused" : final ? "failed" : "sending",
    attempts,
    statusCode: cause instanceof AttemptFailed ? cause.statusCode : null,
    response: cause instanceof AttemptFailed ? cause.response : "",
    error: cause instanceof Error ? cause.message : String(cause),
  };
}

/** Sends to one destination with retries, logging each attempt; resolves with the final log row. */
async function deliverOne(
  message: AlertMessage,
  destination: OpenDestination,
  deps: DeliveryDeps,
): Promise<DeliveryView> {
  const deliveryId = await startDelivery(deps.ctx, destination, {
    idempotencyKey: message.idempotencyKey,
    kind: message.kind,
    title: alertTitle(message),
  });
  let attempts = 0;
  try {
    const answer = await pRetry(
      async () => {
        attempts++;
        try {
          return await attempt(message, destination, deps);
        } catch (error) {
          // A refusal by the outbound policy is final: the address will not become public by retrying.
          if (error instanceof OutboundRefused) throw new AbortError(error);
          throw error;
        }
      },
      {
        retries: deps.attempts - 1,
        minTimeout: deps.backoffMs,
        factor: 2,
        randomize: true,
        onFailedAttempt: async ({ error, retriesLeft }) => {
          await recordAttempt(deps.ctx, deliveryId, failureRecord(error, attempts, retriesLeft === 0));
        },
      },
    );
    return await recordAttempt(deps.ctx, deliveryId, {
      state: "delivered",
      attempts,
      statusCode: answer.statusCode,
      response: answer.response,
      error: null,
    });
  } catch (error) {
    return recordAttempt(deps.ctx, deliveryId, failureRecord(error, attempts, true));
  }
}

/** Delivers `message` to each destination independently; resolves when every one is delivered or given up. */
export async function deliverAlert(
  message: AlertMessage,
  destinations: readonly OpenDestination[],
  deps: DeliveryDeps,
): Promise<DeliveryView[]> {
  const limit = pLimit(DESTINATIONS_AT_ONCE);
  return Promise.all(destinations.map((destination) => limit(() => deliverOne(message, destination, deps))));
}
