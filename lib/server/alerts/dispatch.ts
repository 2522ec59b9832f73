import "server-only";
import { randomUUID } from "node:crypto";
import os from "node:os";
import pLimit from "p-limit";
import type { AlertMessage } from "@/lib/domain/alerts/message";
import { isAppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import type { StoreContext } from "@/lib/server/store/context";
import { attemptDelivery, type AttemptDeps } from "@/lib/server/alerts/deliver";
import { openDestination } from "@/lib/server/alerts/destinations";
import { claimDue, recordAttempt, type AttemptRecord, type OutboxRow } from "@/lib/server/alerts/outbox";

/**
 * The dispatcher: claims due rows of the outbox under a lease, makes one attempt at each (at
 * most `concurrency` at once and `perApplication` of one application, one destination never
 * blocking another), records it, and plans the next attempt with exponential backoff and jitter
 * in the row itself, so a restart, or another instance, continues the schedule. It runs beside
 * the watcher, in the console or in `npm run watcher`; several may run on one database.
 */

export interface DispatchSettings extends AttemptDeps {
  /** Attempts per delivery, the first included; then it is failed. */
  attempts: number;
  /** Wait before the first retry; each next one waits twice as long, times a jitter of 1 to 2. */
  backoffMs: number;
  /** How long a claim holds: longer than one attempt may take. */
  leaseMs: number;
  /** Attempts in flight at once. */
  concurrency: number;
  /**
   * Attempts of one application in flight at once, over every instance: below `concurrency`, so
   * one application's slow receivers leave slots for the others'.
   */
  perApplication: number;
  /** How often due rows are looked for. */
  tickMs: number;
}

export interface Dispatcher {
  owner: string;
  /** Stops claiming; resolves once the attempts in flight are recorded. */
  stop(): Promise<void>;
}

/** Retries wait this long first, then twice as long each time. */
const BACKOFF_MS = 1000;
/** Longest wait between two attempts. */
const MAX_BACKOFF_MS = 3_600_000;
/** A claim outlives its attempt's deadline by this much, for the resolving and the recording around it. */
const LEASE_MARGIN_MS = 15_000;

/** The settings of ALERTS_* for this process. */
export function dispatchSettings(): DispatchSettings {
  const { alerts } = serverConfig();
  return {
    policy: {
      allowPrivate: alerts.allowPrivate,
      timeoutMs: alerts.timeoutMs,
      sandboxInbox: alerts.sandboxInbox,
    },
    smtp: { url: alerts.smtpUrl, from: alerts.emailFrom, allowPlaintextAuth: alerts.smtpAllowPlaintextAuth },
    pagerDutyEventsUrl: alerts.pagerDutyEventsUrl,
    attempts: alerts.attempts,
    backoffMs: BACKOFF_MS,
    leaseMs: alerts.timeoutMs + LEASE_MARGIN_MS,
    concurrency: 32,
    perApplication: 4,
    tickMs: 500,
  };
}

/** The wait after attempt number `attempts` failed: backoff × 2^(attempts − 1) × (1 to 2). */
export function retryDelayMs(backoffMs: number, attempts: number, random = Math.random): number {
  return Math.round(Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** Math.max(0, attempts - 1) * (1 + random())));
}

async function attemptRow(
  ctx: StoreContext,
  row: OutboxRow,
  settings: DispatchSettings,
  now: () => number,
): Promise<AttemptRecord> {
  if (row.payload === null) {
    return {
      state: "failed",
      statusCode: null,
      response: "",
      error: "This alert was recorded before the outbox kept messages, so it cannot be sent again.",
    };
  }
  let destination;
  try {
    destination = await openDestination(ctx, row.app_id, row.destination_id);
  } catch (error) {
    if (!isAppError(error)) throw error;
    const removed = error.code === "not_found";
    return {
      state: "failed",
      statusCode: null,
      response: "",
      error: removed ? "The destination was removed before this alert was sent." : error.message,
    };
  }
  const outcome = await attemptDelivery(JSON.parse(row.payload) as AlertMessage, destination, settings);
  const { statusCode, response, error } = outcome;
  if (outcome.result === "delivered") return { state: "delivered", statusCode, response, error };
  if (outcome.result === "retry" && row.attempts < settings.attempts) {
    // Not before the receiver asked (a 429's Retry-After, Discord's retry_after), nor before the backoff.
    const wait = Math.max(retryDelayMs(settings.backoffMs, row.attempts), outcome.retryAfterMs ?? 0);
    const nextAttemptAt = now() + Math.min(wait, MAX_BACKOFF_MS);
    return { state: "pending", statusCode, response, error, nextAttemptAt };
  }
  return { state: outcome.result === "refused" ? "refused" : "failed", statusCode, response, error };
}

/**
 * Makes the attempt a claim of `owner` stands for and records it; undefined when the lease
 * passed to another instance meanwhile.
 */
export async function sendClaimed(
  ctx: StoreContext,
  owner: string,
  row: OutboxRow,
  settings: DispatchSettings,
  now: () => number = Date.now,
): Promise<OutboxRow | undefined> {
  const record = await attemptRow(ctx, row, settings, now);
  return recordAttempt(ctx, row.id, owner, record, now());
}

function log(line: string): void {
  console.warn(`[alerts] ${line}`);
}

/** Starts a dispatcher over `ctx`: claims every `tickMs` until stopped. */
export function createDispatcher(
  ctx: StoreContext,
  settings: DispatchSettings,
  owner = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
): Dispatcher {
  const limit = pLimit(settings.concurrency);
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  let storeDown = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> = Promise.resolve();

  const send = (row: OutboxRow) => {
    const task = limit(() => sendClaimed(ctx, owner, row, settings))
      // A database down now is a lease that lapses: another claim sends the row again.
      .catch((error: unknown) =>
        log(`delivery ${row.id} was not recorded: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  };

  const tick = async () => {
    try {
      const free = settings.concurrency - limit.activeCount - limit.pendingCount;
      const now = Date.now();
      const claimed = await claimDue(
        ctx,
        { owner, until: now + settings.leaseMs },
        { limit: free, perApplication: settings.perApplication },
        now,
      );
      if (storeDown) log("the database answers again; alerts are sent again.");
      storeDown = false;
      for (const row of claimed) send(row);
    } catch (error) {
      if (!storeDown)
        log(
          `the database does not answer (${error instanceof Error ? error.message : String(error)}); retrying.`,
        );
      storeDown = true;
    }
  };

  const loop = async () => {
    ticking = tick();
    await ticking;
    if (!stopped) timer = setTimeout(loop, settings.tickMs);
  };
  void loop();

  return {
    owner,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await ticking;
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** `watcher` with this process's dispatcher beside it, stopped with it. */
export function withDispatcher<W extends { owner: string; stop(): Promise<void> }>(
  ctx: StoreContext,
  watcher: W,
): W {
  const dispatcher = createDispatcher(ctx, dispatchSettings(), watcher.owner);
  return {
    ...watcher,
    stop: () => Promise.all([watcher.stop(), dispatcher.stop()]).then(() => undefined),
  };
}
