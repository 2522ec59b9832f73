import "server-only";
import { fillDerived } from "@/lib/server/watch/derived";
import { randomUUID } from "node:crypto";
import os from "node:os";
import pLimit from "p-limit";
import { alertEngine } from "@/lib/server/alerts/engine";
import { AppError, isAppError } from "@/lib/server/app-error";
import { serverConfig, type WatchConfig } from "@/lib/server/config";
import { KeyBudgets } from "@/lib/server/history/key-budget";
import { hubReader } from "@/lib/server/history/reader";
import type { WebhookId } from "@/lib/server/hub/path-params";
import type { StoreContext } from "@/lib/server/store/context";
import { expireCopiesNow } from "@/lib/server/history/copy";
import { claimDue, finishPoll, LeaseLost, prune, type Claimed } from "@/lib/server/watch/cursor";
import { watchSandboxDemo } from "@/lib/server/watch/demo-watches";
import { pollWebhook, type PollResult } from "@/lib/server/watch/poll";
import { HubCallCounts } from "@/lib/server/watch/hub-calls";
import { sharedStoreContext } from "@/lib/server/store/context";
import { withDispatcher } from "@/lib/server/alerts/dispatch";
import { markKeyRejected, openKey, refreshKeys } from "@/lib/server/watch/watches";

/**
 * The watcher: claims due webhooks under a lease, polls each (WATCH_CONCURRENCY at once), plans the
 * next poll, and keeps going when a webhook, a key or the database fails. It runs in the console
 * process, or alone (main.ts).
 */
export interface Watcher {
  /** This instance's name in the leases it holds. */
  owner: string;
  /** The hub calls this instance may make now under each application's key (key-budget.ts). */
  budgetsLeft(): Array<{ appId: string; calls: number }>;
  /** Stops claiming work, cancels the polls in flight (their leases lapse or are released). */
  stop(): Promise<void>;
}

export type WatcherSettings = Pick<
  WatchConfig,
  | "intervalSeconds"
  | "backfillCount"
  | "backfillAgeMs"
  | "retentionDays"
  | "concurrency"
  | "keyRequestsPerMinute"
  | "leaseSeconds"
>;

/** Longest wait after repeated failures of one webhook's polls. */
const MAX_BACKOFF_MS = 15 * 60_000;
const PRUNE_EVERY_MS = 3_600_000;

/** When to poll again: soon while filling, often while failing, at the interval when quiet. */
export function nextPollDelayMs(settings: Pick<WatchConfig, "intervalSeconds">, result: PollResult): number {
  const interval = settings.intervalSeconds * 1000;
  if (result.backfilling) return 0;
  if (result.failing) return Math.max(1000, interval / 4);
  return result.newLogs > 0 ? interval / 2 : interval;
}

/** After a failed poll: the hub's Retry-After when it gave one, else doubling from the interval. */
export function retryDelayMs(
  settings: Pick<WatchConfig, "intervalSeconds">,
  error: unknown,
  failuresBefore: number,
): number {
  if (isAppError(error) && error.retryAfter !== undefined) return error.retryAfter * 1000;
  return Math.min(MAX_BACKOFF_MS, settings.intervalSeconds * 1000 * 2 ** Math.min(failuresBefore, 10));
}

function log(line: string): void {
  console.warn(`[watcher] ${line}`);
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Starts a watcher over `ctx` (tests give theirs; the console's comes from the configuration). */
export function createWatcher(
  ctx: StoreContext,
  settings: WatcherSettings,
  owner = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
): Watcher {
  const budgets = new KeyBudgets(settings.keyRequestsPerMinute);
  const leaseMs = settings.leaseSeconds * 1000;
  const tickMs = Math.min(1000, leaseMs / 4);
  const hubCalls = new HubCallCounts();
  const callLimit = pLimit(settings.concurrency);
  const running = new Set<Promise<boolean>>();
  const stopper = new AbortController();
  let storeDown = false;
  let lastPrune = 0;
  const alerts = alertEngine(ctx, settings.intervalSeconds);

  /** Polls one claimed webhook; true when its history is still filling. */
  const poll = async (claimed: Claimed): Promise<boolean> => {
    const webhookId = claimed.state.webhook_id;
    let backfilling = false;
    // The store holds every log written before the poll began reading, so that is its "as of" time.
    const startedAt = Date.now();
    let outcome: { nextPollAt: number; error: { code: string; message: string } | null };
    try {
      const apiKey = await openKey(ctx, claimed.appId);
      if (apiKey === null) {
        throw new AppError(
          "unauthorized",
          "The stored key of this application cannot be opened with the configured secrets.",
        );
      }
      const result = await pollWebhook(
        {
          ctx,
          owner,
          leaseMs,
          backfillCount: settings.backfillCount,
          backfillAgeMs: settings.backfillAgeMs,
          parallelPages: settings.concurrency,
        },
        claimed,
        hubReader({ appId: claimed.appId, apiKey }, webhookId as WebhookId, budgets, callLimit, hubCalls),
        stopper.signal,
      );
      backfilling = result.backfilling;
      outcome = { nextPollAt: Date.now() + nextPollDelayMs(settings, result), error: null };
    } catch (error) {
      if (error instanceof LeaseLost || stopper.signal.aborted) return false;
      if (isAppError(error) && error.code === "unauthorized") {
        await markKeyRejected(ctx, claimed.appId, error.message).catch(() => undefined);
      }
      if (isAppError(error) && error.code === "rate_limited")
        budgets.pause(claimed.appId, error.retryAfter ?? 5);
      if (!isAppError(error)) log(`poll of ${webhookId} failed: ${reason(error)}`);
      const { code, message } = isAppError(error)
        ? error
        : { code: "internal", message: "The poll failed unexpectedly; see the console's log." };
      outcome = {
        nextPollAt: Date.now() + retryDelayMs(settings, error, claimed.state.poll_failures),
        error: { code, message },
      };
    }
    // A database down now is a lease that lapses: the next claim takes the webhook up again.
    await finishPoll(ctx, owner, webhookId, outcome, startedAt).catch(() => undefined);
    await alerts.afterPoll(claimed.appId, webhookId);
    return backfilling;
  };

  const tick = async () => {
    try {
      const free = settings.concurrency - running.size;
      const claimed = await claimDue(ctx, owner, free, leaseMs);
      if (storeDown) log("the database answers again; polling resumes.");
      storeDown = false;
      for (const one of claimed) {
        const task = poll(one).finally(() => running.delete(task));
        running.add(task);
        // A history still filling is due at once: claim again now rather than at the next tick.
        void task.then((backfilling) => {
          if (backfilling) void claimNow();
        });
      }
      await hubCalls.flush(ctx);
      if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = Date.now();
        await prune(ctx, settings.retentionDays);
      }
      await expireCopiesNow(ctx);
      await alerts.pass();
    } catch (error) {
      if (!storeDown) {
        log(`the database does not answer (${reason(error)}); retrying.`);
      }
      storeDown = true;
    }
  };

  // Ticks run one after another, so two never claim the same free slots.
  let ticks = Promise.resolve();
  const claimNow = () => {
    if (!stopper.signal.aborted) ticks = ticks.then(tick);
    return ticks;
  };
  let timer: NodeJS.Timeout | undefined;
  const loop = async () => {
    await claimNow();
    if (!stopper.signal.aborted) timer = setTimeout(loop, tickMs);
  };
  void loop();

  return {
    owner,
    budgetsLeft: () => budgets.left().map(({ key, calls }) => ({ appId: key, calls })),
    async stop() {
      stopper.abort();
      clearTimeout(timer);
      await Promise.allSettled([...running]);
      await hubCalls.flush(ctx).catch(() => undefined);
    },
  };
}

const SHARED = Symbol.for("hub-console.watcher");

/** The sandbox's demo watched, tried again a few times: a sandbox still starting answers late. */
async function watchDemoSoon(ctx: StoreContext): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await watchSandboxDemo(ctx);
    } catch (error) {
      if (attempt === 5) {
        log(`the sandbox's demo webhooks could not be watched: ${reason(error)}`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 2000 * attempt));
    }
  }
}

/** This process's watcher, when it started one (WATCH_IN_CONSOLE, or `npm run watcher`) and it runs; else null. */
export async function runningWatcher(): Promise<Watcher | null> {
  const shared = globalThis as Record<symbol, Promise<Watcher> | undefined>;
  return (await shared[SHARED]?.catch(() => null)) ?? null;
}

/**
 * Starts this process's watcher once: opens the store (throwing the Error that names
 * DATABASE_URL when it cannot), seals stored keys again under the newest secret, then polls.
 */
export async function startWatcher(): Promise<Watcher> {
  const shared = globalThis as Record<symbol, Promise<Watcher> | undefined>;
  shared[SHARED] ??= (async () => {
    const ctx = await sharedStoreContext();
    const { unopened } = await refreshKeys(ctx);
    await fillDerived(ctx);
    if (unopened > 0)
      log(
        `${unopened} watched applications have a key sealed under a secret this console does not have ` +
          "(WATCH_SECRET or SESSION_SECRET changed): their webhooks are not polled until someone signs in with their key.",
      );
    void watchDemoSoon(ctx);
    return withDispatcher(ctx, createWatcher(ctx, serverConfig().watch));
  })();
  return shared[SHARED];
}
