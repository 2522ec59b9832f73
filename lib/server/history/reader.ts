import "server-only";
import type { LimitFunction } from "p-limit";
import type { Webhook, WebhookLog, WebhookLogPage } from "@/lib/domain/hub-schemas";
import { getWebhook, listWebhookLogs } from "@/lib/server/hub/client";
import type { WebhookId } from "@/lib/server/hub/path-params";
import { sleepSeconds, withRetry } from "@/lib/server/history/retry";
import type { KeyBudgets } from "@/lib/server/history/key-budget";

/**
 * The one reader of a webhook's history on the hub, for the watcher and the copies: every call
 * under the key's budget and the retry policy. The hub only adds logs at the top, so offsets only
 * shift forward: a page read late holds logs already seen (dropped by id), never skips one.
 */

/** Logs per call: the most the API hands out. */
export const PAGE_SIZE = 50;

/** The hub as a reading of one webhook sees it. */
export interface HubReader {
  webhook(signal: AbortSignal): Promise<Webhook>;
  logs(offset: number, signal: AbortSignal): Promise<WebhookLogPage>;
}

/** Counts how each call ends (the watcher's hub calls by outcome, for /metrics). */
export interface CallObserver {
  count<T>(call: Promise<T>, signal: AbortSignal): Promise<T>;
}

/** Calls for one webhook with one key: each waits for the key's budget, then runs under `limit`, retried. */
export function hubReader(
  key: { appId: string; apiKey: string },
  webhookId: WebhookId,
  budgets: KeyBudgets,
  limit: LimitFunction,
  observer?: CallObserver,
): HubReader {
  const call = <T>(read: (signal: AbortSignal) => Promise<T>, signal: AbortSignal) =>
    withRetry(
      async () => {
        await budgets.take(key.appId, signal);
        return limit(() => (observer ? observer.count(read(signal), signal) : read(signal)));
      },
      {
        signal,
        waitOut: async (seconds, waitSignal) => {
          budgets.pause(key.appId, seconds);
          await sleepSeconds(seconds, waitSignal);
        },
      },
    );
  const hubCall = (signal: AbortSignal) => ({ apiKey: key.apiKey, signal, keep: false });
  return {
    webhook: (signal) => call((s) => getWebhook(hubCall(s), webhookId), signal),
    logs: (offset, signal) =>
      call((s) => listWebhookLogs(hubCall(s), webhookId, { offset, limit: PAGE_SIZE }), signal),
  };
}

export interface NewestLogs {
  /** The logs newer than the known head, newest first, without duplicates. */
  logs: WebhookLog[];
  /** Where the known head stood in the listing (0 when it was not met). */
  headIndex: number;
  /** More arrived than `max`: the known head was not reached, so a gap lies below these logs. */
  gap: boolean;
  /** The hub's count of the webhook's logs, as its first page said. */
  total: number;
}

/** Newest pages until the log `headId` (or the end, or `max` new logs). */
export async function readNewest(
  hub: HubReader,
  headId: string | null,
  max: number,
  signal: AbortSignal,
): Promise<NewestLogs> {
  const logs: WebhookLog[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const page = await hub.logs(offset, signal);
    if (offset === 0) total = page.pagination.total;
    for (const [index, log] of page.data.entries()) {
      const id = log.id.toLowerCase();
      if (id === headId) return { logs, headIndex: offset + index, gap: false, total };
      if (!seen.has(id)) {
        seen.add(id);
        logs.push(log);
      }
    }
    if (page.data.length < PAGE_SIZE) return { logs, headIndex: 0, gap: false, total };
    if (logs.length >= max) return { logs, headIndex: 0, gap: true, total };
  }
}

/**
 * Pages from `offset` on, `parallel` in flight, at most `maxPages`, handed over in offset order,
 * as many at a time as have arrived in order. Ends after a short page, or when the caller stops
 * iterating, which aborts the calls in flight.
 */
export async function* olderPages(
  hub: HubReader,
  offset: number,
  options: { parallel: number; maxPages: number },
  signal: AbortSignal,
): AsyncGenerator<WebhookLogPage[]> {
  const done = new AbortController();
  const readSignal = AbortSignal.any([signal, done.signal]);
  const queue: Array<{ read: Promise<WebhookLogPage>; page?: WebhookLogPage }> = [];
  let requested = 0;
  let ended = false;
  const request = () => {
    while (!ended && queue.length < options.parallel && requested < options.maxPages) {
      const slot: (typeof queue)[number] = { read: hub.logs(offset + requested * PAGE_SIZE, readSignal) };
      slot.read.then((page) => (slot.page = page)).catch(() => undefined);
      queue.push(slot);
      requested++;
    }
  };
  try {
    request();
    while (queue.length > 0) {
      const pages = [await queue.shift()!.read];
      // Answers that came in meanwhile are taken in too, so that one write holds them all.
      await new Promise((resolve) => setImmediate(resolve));
      while (queue[0]?.page) pages.push(queue.shift()!.page!);
      const end = pages.findIndex((page) => page.data.length < PAGE_SIZE);
      if (end >= 0) {
        ended = true;
        pages.length = end + 1;
      }
      request();
      yield pages;
      if (ended) return;
    }
  } finally {
    done.abort();
  }
}
