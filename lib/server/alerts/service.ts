import "server-only";
import { randomUUID } from "node:crypto";
import type { DeliveryView, DestinationView } from "@/lib/domain/alerts/destinations";
import type { IncidentsAnswer } from "@/lib/domain/alerts/incidents";
import { testAlert } from "@/lib/domain/alerts/message";
import { pagerDutyEventsUrl } from "@/lib/domain/alerts/destinations";
import {
  DESTINATION_LABELS,
  urlFieldLabel,
  type AddDestination,
} from "@/lib/domain/inputs/alert-destination";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { firstValue, requestScheme } from "@/lib/server/http/forwarded";
import type { Application } from "@/lib/server/session/session";
import { withStore } from "@/lib/server/store/context";
import * as destinations from "@/lib/server/alerts/destinations";
import { dispatchSettings, sendClaimed } from "@/lib/server/alerts/dispatch";
import { refusedUrl, type OutboundPolicy } from "@/lib/server/alerts/outbound";
import { enqueueClaimed } from "@/lib/server/alerts/outbox";
import { listIncidents } from "@/lib/server/alerts/incident-views";
import { rememberApplicationNames } from "@/lib/server/alerts/application-names";

/**
 * What the alert routes do, for one application of the session: list, add and remove its
 * destinations, read its delivery log, and send a test alert. A database failure is
 * `store_unavailable`, as for the watch.
 */

export function outboundPolicy(): OutboundPolicy {
  return dispatchSettings().policy;
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
        `${DESTINATION_LABELS.to}: this console has no SMTP_URL, so it cannot send email. ` +
          "Ask its operator to set SMTP_URL, or add another kind of destination.",
      );
    }
    return;
  }
  if (input.kind === "pagerduty") {
    // The events address is PagerDuty's, or the operator's ALERTS_PAGERDUTY_EVENTS_URL: checked all the same.
    const url = pagerDutyEventsUrl(input.region, serverConfig().alerts.pagerDutyEventsUrl);
    const reason = await refusedUrl(new URL(url), policy);
    if (reason)
      throw refuse(
        "region",
        `${DESTINATION_LABELS.region}: its events address is refused (${reason}). ` +
          "Ask the console's operator to check ALERTS_PAGERDUTY_EVENTS_URL.",
      );
    return;
  }
  const reason = await refusedUrl(new URL(input.url), policy);
  if (reason)
    throw refuse(
      "url",
      `${urlFieldLabel(input.kind)}: ${reason}. Use the receiver's public https:// address.`,
    );
}

/** The session's name for an application, kept for its alerts to say. */
const nameOf = (app: Pick<Application, "id" | "name">) => new Map([[app.id, app.name]]);

export function listDestinations(app: Pick<Application, "id" | "name">): Promise<DestinationView[]> {
  return withStore(async (ctx) => {
    await rememberApplicationNames(ctx, nameOf(app));
    return destinations.listDestinations(ctx, app.id);
  });
}

export async function addDestination(app: Pick<Application, "id" | "name">, input: AddDestination) {
  await checkReachable(input, outboundPolicy());
  return withStore(async (ctx) => {
    await rememberApplicationNames(ctx, nameOf(app));
    return destinations.addDestination(ctx, app.id, input, Date.now(), serverConfig().alerts.maxDestinations);
  });
}

export function removeDestination(appId: string, id: string): Promise<void> {
  return withStore((ctx) => destinations.removeDestination(ctx, appId, id));
}

export function recentDeliveries(appId: string): Promise<DeliveryView[]> {
  return withStore((ctx) => destinations.recentDeliveries(ctx, appId));
}

/** The firing and recently resolved incidents of these applications (id → the session's name for it). */
export function incidents(applicationNames: ReadonlyMap<string, string>): Promise<IncidentsAnswer> {
  return withStore(async (ctx) => {
    await rememberApplicationNames(ctx, applicationNames);
    return listIncidents(ctx, applicationNames);
  });
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

/**
 * Sends a test alert to one destination of `app`: records it in the outbox, already claimed by
 * this request, makes the first attempt and answers with the delivery as the log has it. A
 * failed first attempt is left pending for the dispatcher, which retries it with backoff.
 */
export async function sendTestAlert(
  app: Pick<Application, "id" | "name">,
  destinationId: string,
  consoleUrl: string,
): Promise<DeliveryView> {
  return withStore(async (ctx) => {
    await rememberApplicationNames(ctx, nameOf(app));
    const destination = await destinations.openDestination(ctx, app.id, destinationId);
    const message = testAlert({
      idempotencyKey: `test_${randomUUID()}`,
      at: new Date(),
      application: { id: app.id, name: app.name },
      destinationLabel: destination.label,
      consoleUrl: `${consoleUrl}/alerts?app=${app.id}`,
      redactPatterns: serverConfig().redactPatterns,
    });
    const settings = dispatchSettings();
    const owner = `test-alert:${randomUUID()}`;
    const row = await enqueueClaimed(
      ctx,
      { id: destination.id, app_id: app.id, label: destination.label, kind: destination.kind },
      message,
      { owner, until: Date.now() + settings.leaseMs },
    );
    const recorded = await sendClaimed(ctx, owner, row, settings);
    return destinations.deliveryOf(recorded ?? row);
  });
}
