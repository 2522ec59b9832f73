import "server-only";
import { randomUUID } from "node:crypto";
import type { DeliveryView, DestinationView } from "@/lib/domain/alerts/destinations";
import { testAlert } from "@/lib/domain/alerts/message";
import { destinationFieldLabel, type AddDestination } from "@/lib/domain/inputs/alert-destination";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { firstValue, requestScheme } from "@/lib/server/http/forwarded";
import type { Application } from "@/lib/server/session/session";
import type { StoreContext } from "@/lib/server/watch/context";
import { sharedStoreContext, unavailable } from "@/lib/server/watch/store";
import * as destinations from "@/lib/server/alerts/destinations";
import { deliverAlert, type DeliveryDeps } from "@/lib/server/alerts/deliver";
import { refusedUrl, type OutboundPolicy } from "@/lib/server/alerts/outbound";

/**
 * What the alert routes do, for one application of the session: list, add and remove its
 * destinations, read its delivery log, and send a test alert. A database failure is
 * `store_unavailable`, as for the watch.
 */

/** Retries wait this long first, then twice as long each time. */
const BACKOFF_MS = 1000;

export function outboundPolicy(): OutboundPolicy {
  const { alerts } = serverConfig();
  return { allowPrivate: alerts.allowPrivate, timeoutMs: alerts.timeoutMs };
}

function depsOver(ctx: StoreContext): DeliveryDeps {
  const { alerts } = serverConfig();
  return {
    ctx,
    policy: outboundPolicy(),
    smtp: { url: alerts.smtpUrl, from: alerts.emailFrom },
    attempts: alerts.attempts,
    backoffMs: BACKOFF_MS,
  };
}

/** Runs `run` on the shared store; a database failure is `store_unavailable`. */
export async function withStore<T>(run: (ctx: StoreContext) => Promise<T>): Promise<T> {
  try {
    return await run(await sharedStoreContext());
  } catch (error) {
    throw unavailable(error);
  }
}

function refuse(field: string, message: string): AppError {
  return new AppError("bad_request", message, { fields: { [field]: [message] } });
}

/** Refuses a destination the outbound policy would never call, naming the field by its label. */
async function checkReachable(input: AddDestination, policy: OutboundPolicy): Promise<void> {
  if (input.kind === "email") {
    if (!serverConfig().alerts.smtpUrl) {
      throw refuse(
        "to",
        `${destinationFieldLabel("email", "to")}: this console has no SMTP_URL, so it cannot send email. ` +
          "Ask its operator to set SMTP_URL, or add a Slack or webhook destination.",
      );
    }
    return;
  }
  const reason = await refusedUrl(new URL(input.url), policy);
  if (reason)
    throw refuse(
      "url",
      `${destinationFieldLabel(input.kind, "url")}: ${reason}. Use the receiver's public https:// address.`,
    );
}

export function listDestinations(appId: string): Promise<DestinationView[]> {
  return withStore((ctx) => destinations.listDestinations(ctx, appId));
}

export async function addDestination(appId: string, input: AddDestination) {
  await checkReachable(input, outboundPolicy());
  return withStore((ctx) => destinations.addDestination(ctx, appId, input));
}

export function removeDestination(appId: string, id: string): Promise<void> {
  return withStore((ctx) => destinations.removeDestination(ctx, appId, id));
}

export function recentDeliveries(appId: string): Promise<DeliveryView[]> {
  return withStore((ctx) => destinations.recentDeliveries(ctx, appId));
}

/** The console's address as people open it: PUBLIC_ORIGIN, else the request's own. */
export function consoleOrigin(request: Request): string {
  const { publicOrigins, trustProxy } = serverConfig();
  if (publicOrigins[0]) return publicOrigins[0];
  const host =
    (trustProxy ? firstValue(request.headers.get("x-forwarded-host")) : null) ?? request.headers.get("host");
  return host
    ? `${trustProxy ? requestScheme(request) : new URL(request.url).protocol.slice(0, -1)}://${host}`
    : new URL(request.url).origin;
}

/** Sends a test alert to one destination of `app`, and answers with its delivery once done or given up. */
export async function sendTestAlert(
  app: Pick<Application, "id" | "name">,
  destinationId: string,
  consoleUrl: string,
): Promise<DeliveryView> {
  return withStore(async (ctx) => {
    const destination = await destinations.openDestination(ctx, app.id, destinationId);
    const message = testAlert({
      idempotencyKey: `test_${randomUUID()}`,
      at: new Date(),
      application: { id: app.id, name: app.name },
      destinationLabel: destination.label,
      consoleUrl: `${consoleUrl}/alerts?app=${app.id}`,
    });
    const [delivery] = await deliverAlert(message, [destination], depsOver(ctx));
    return delivery!;
  });
}
