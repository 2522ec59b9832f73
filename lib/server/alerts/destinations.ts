import "server-only";
import { sql, type Selectable } from "kysely";
import { randomBytes, randomUUID } from "node:crypto";
import {
  DEFAULT_MAX_DESTINATIONS,
  maskEmail,
  maskRoutingKey,
  maskUrl,
  type PagerDutyRegion,
  type DeliveryView,
  type DestinationKind,
  type DestinationView,
} from "@/lib/domain/alerts/destinations";
import {
  DESTINATION_LABELS,
  urlFieldLabel,
  type AddDestination,
} from "@/lib/domain/inputs/alert-destination";
import { AppError } from "@/lib/server/app-error";
import { toIso, type StoreContext } from "@/lib/server/store/context";
import type { StoreDatabase, StoreDb } from "@/lib/server/store/schema";
import { moveRulesTo } from "@/lib/server/alerts/rules-store";
import { moveWindowsTo } from "@/lib/server/maintenance/windows-store";

/**
 * Alert destinations and their delivery log, in the watch's store. Each belongs to one
 * application (the console's id of its key): only a session holding that key lists, adds,
 * removes or tests them. The secret parts (the URL, the signing secret, the address, the routing key) are stored
 * sealed and shown masked; only the sender opens them.
 */

/** A destination's secret parts, as sealed. */
export interface DestinationSecrets {
  url?: string;
  signingSecret?: string;
  to?: string;
  /** PagerDuty: the integration's routing key, and the region its events go to. */
  routingKey?: string;
  region?: PagerDutyRegion;
}

/** A destination opened for sending. */
export interface OpenDestination {
  id: string;
  appId: string;
  kind: DestinationKind;
  label: string;
  secrets: DestinationSecrets;
}

type DestinationRow = StoreDatabase["alert_destinations"];
type DeliveryRow = Selectable<StoreDatabase["alert_deliveries"]>;

function destinationOf(row: DestinationRow): DestinationView {
  return {
    id: row.id,
    appId: row.app_id,
    kind: row.kind,
    label: row.label,
    target: row.target,
    createdAt: toIso(row.created_at),
  };
}

/** A row of the delivery log (the outbox) as the console shows it. */
export function deliveryOf(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    destinationId: row.destination_id,
    destinationLabel: row.destination_label,
    kind: row.kind,
    idempotencyKey: row.idempotency_key,
    alertKind: row.alert_kind,
    title: row.title,
    state: row.state,
    attempts: row.attempts,
    statusCode: row.status_code,
    response: row.response,
    error: row.error,
    nextAttemptAt: row.state === "pending" ? toIso(row.next_attempt_at) : null,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

function notFound(): AppError {
  return new AppError(
    "not_found",
    "This destination is not one of this application's (it may have been removed). Reload the Alerts page.",
  );
}

/** A Standard Webhooks signing secret: `whsec_` and base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The field an address is entered in, by kind: where a refusal of the address shows. */
function addressField(input: AddDestination) {
  switch (input.kind) {
    case "email":
      return { name: "to", label: DESTINATION_LABELS.to, address: input.to } as const;
    case "pagerduty":
      return { name: "routingKey", label: DESTINATION_LABELS.routingKey, address: input.routingKey } as const;
    default:
      return { name: "url", label: urlFieldLabel(input.kind), address: input.url } as const;
  }
}

/** What of a new destination is sealed, and its masked form; a signed webhook given no secret gets a new one. */
function sealedParts(input: AddDestination): { secrets: DestinationSecrets; target: string } {
  switch (input.kind) {
    case "email":
      return { secrets: { to: input.to }, target: maskEmail(input.to) };
    case "pagerduty":
      return {
        secrets: { routingKey: input.routingKey, region: input.region },
        target: maskRoutingKey(input.routingKey, input.region),
      };
    case "webhook":
      return {
        secrets: { url: input.url, signingSecret: input.secret || newSigningSecret() },
        target: maskUrl(input.url),
      };
    default:
      return { secrets: { url: input.url }, target: maskUrl(input.url) };
  }
}

/**
 * Stores a destination of `appId`, unless it already has `maxDestinations` (ALERTS_MAX_DESTINATIONS).
 * A signed webhook given no secret gets a new one, returned here once (`signingSecret`) and
 * never shown again. The checks and the insert are one transaction (on PostgreSQL under a lock
 * per application), so adds at once cannot pass the cap or store one address twice.
 */
export async function addDestination(
  ctx: StoreContext,
  appId: string,
  input: AddDestination,
  now = Date.now(),
  maxDestinations = DEFAULT_MAX_DESTINATIONS,
): Promise<{ destination: DestinationView; signingSecret: string | null }> {
  return ctx.db.transaction().execute(async (tx) => {
    if (ctx.kind === "postgres")
      await sql`select pg_advisory_xact_lock(hashtext(${`alert_destinations:${appId}`}))`.execute(tx);
    return insertDestination({ ...ctx, db: tx }, appId, input, maxDestinations, now);
  });
}

async function insertDestination(
  ctx: StoreContext,
  appId: string,
  input: AddDestination,
  maxDestinations: number,
  now: number,
): Promise<{ destination: DestinationView; signingSecret: string | null }> {
  await refuseDuplicate(ctx, appId, input);
  await refuseOverCap(ctx, appId, input, maxDestinations);
  const { secrets, target } = sealedParts(input);
  const row: DestinationRow = {
    id: randomUUID(),
    app_id: appId,
    kind: input.kind,
    label: input.label,
    sealed: ctx.sealer.seal(JSON.stringify(secrets)),
    target,
    created_at: now,
  };
  await ctx.db.insertInto("alert_destinations").values(row).execute();
  // A secret the person pasted is theirs already: only a generated one is shown, once.
  const generated = input.kind === "webhook" && !input.secret ? (secrets.signingSecret ?? null) : null;
  return { destination: destinationOf(row), signingSecret: generated };
}

/**
 * Each destination's name is its own within an application (alerts and the delivery log say it),
 * and so is its address: the same one twice would get every alert twice.
 */
async function refuseDuplicate(ctx: StoreContext, appId: string, input: AddDestination): Promise<void> {
  const rows = await ctx.db
    .selectFrom("alert_destinations")
    .select(["label", "sealed"])
    .where("app_id", "=", appId)
    .execute();
  const same = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
  if (rows.some((row) => same(row.label, input.label))) {
    const message =
      `${DESTINATION_LABELS.label}: this application already has a destination named "${input.label.trim()}". ` +
      "Choose another name, or remove that one first.";
    throw new AppError("bad_request", message, { fields: { label: [message] } });
  }
  const field = addressField(input);
  const address = field.address;
  const twin = rows.find((row) => {
    const opened = ctx.sealer.open(row.sealed);
    const secrets = opened ? (JSON.parse(opened.plain) as DestinationSecrets) : {};
    const theirs = secrets.to ?? secrets.url ?? secrets.routingKey;
    // An e-mail address is matched whatever its case; a URL's path is not (tokens are case-sensitive).
    return (
      theirs !== undefined && (input.kind === "email" ? same(theirs, address) : theirs === address.trim())
    );
  });
  if (twin) {
    const message =
      `${field.label}: "${twin.label}" sends to this address already. ` +
      "Use another address, or remove that destination first.";
    throw new AppError("bad_request", message, { fields: { [field.name]: [message] } });
  }
}

/** An application has at most `maxDestinations`: each one is called for every alert. */
async function refuseOverCap(
  ctx: StoreContext,
  appId: string,
  input: AddDestination,
  maxDestinations: number,
): Promise<void> {
  const { count } = await ctx.db
    .selectFrom("alert_destinations")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("app_id", "=", appId)
    .executeTakeFirstOrThrow();
  if (Number(count) < maxDestinations) return;
  const field = addressField(input);
  const message =
    `${field.label}: this application has ${Number(count)} destinations, the most this console allows ` +
    `(ALERTS_MAX_DESTINATIONS=${maxDestinations}). Remove one it no longer needs, then add this one.`;
  throw new AppError("bad_request", message, { fields: { [field.name]: [message] } });
}

/** By name. */
export async function listDestinations(ctx: StoreContext, appId: string): Promise<DestinationView[]> {
  const rows = await ctx.db
    .selectFrom("alert_destinations")
    .selectAll()
    .where("app_id", "=", appId)
    .orderBy("label")
    .orderBy("id")
    .execute();
  return rows.map(destinationOf);
}

/** Removes a destination; its deliveries stay in the log under the label it had. */
export async function removeDestination(ctx: StoreContext, appId: string, id: string): Promise<void> {
  const removed = await ctx.db
    .deleteFrom("alert_destinations")
    .where("id", "=", id)
    .where("app_id", "=", appId)
    .returning("id")
    .executeTakeFirst();
  if (!removed) throw notFound();
}

/** A destination of `appId` with its secrets opened; not_found when it is not one of its. */
export async function openDestination(
  ctx: StoreContext,
  appId: string,
  id: string,
): Promise<OpenDestination> {
  const row = await ctx.db
    .selectFrom("alert_destinations")
    .selectAll()
    .where("id", "=", id)
    .where("app_id", "=", appId)
    .executeTakeFirst();
  if (!row) throw notFound();
  const opened = ctx.sealer.open(row.sealed);
  if (!opened) {
    throw new AppError(
      "bad_request",
      `"${row.label}" was sealed under a secret this console no longer has (WATCH_SECRET or SESSION_SECRET changed). Remove it and add it again.`,
    );
  }
  return {
    id: row.id,
    appId: row.app_id,
    kind: row.kind,
    label: row.label,
    secrets: JSON.parse(opened.plain) as DestinationSecrets,
  };
}

/** The newest deliveries of an application's alerts. */
export async function recentDeliveries(
  ctx: StoreContext,
  appId: string,
  limit = 50,
): Promise<DeliveryView[]> {
  const rows = await ctx.db
    .selectFrom("alert_deliveries")
    .selectAll()
    .where("app_id", "=", appId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(deliveryOf);
}

/**
 * Moves an application's alerts to its new id (its key was handed over, or the id's secret
 * rotated): its destinations but those in `drop` (removed, as Remove does), their delivery log,
 * its rules with each webhook's snooze and quiet hours (moveRulesTo), and its maintenance windows.
 */
export async function moveAlertsTo(
  db: StoreDb,
  oldAppId: string,
  appId: string,
  drop: readonly string[] = [],
): Promise<void> {
  if (drop.length > 0)
    await db
      .deleteFrom("alert_destinations")
      .where("app_id", "=", oldAppId)
      .where("id", "in", drop)
      .execute();
  await db.updateTable("alert_destinations").set({ app_id: appId }).where("app_id", "=", oldAppId).execute();
  await db.updateTable("alert_deliveries").set({ app_id: appId }).where("app_id", "=", oldAppId).execute();
  await moveRulesTo(db, oldAppId, appId);
  await moveWindowsTo(db, oldAppId, appId);
}
