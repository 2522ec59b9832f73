import "server-only";
import type { Webhook, WebhookLog, WebhookLogPage } from "@/lib/domain/hub-schemas";
import type { StoreContext } from "@/lib/server/watch/context";
import { recordWebhook, writeLogs, type Claimed, type CursorChange } from "@/lib/server/watch/cursor";

/**
 * One poll of one watched webhook: the webhook itself (active, numberOfErrors), then its newest
 * logs page by page until the newest stored log (incremental), then, while the history is still
 * filling, older pages up to the backfill horizon. Backfill pages are read a few at once and
 * written in offset order, each batch together with the cursor that follows it, so a poll cut
 * short anywhere is taken up again by the next without a gap or a duplicate. The hub lists newest
 * first and only adds logs, so offsets only shift forward: a page read late holds logs already
 * seen (dropped by id), never skips one.
 */

export const PAGE_SIZE = 50;
/** Backfill pages one poll reads, per page in flight, before it lets other webhooks have a turn. */
const BACKFILL_PAGES_PER_POLL = 40;

/** The hub as a poll sees it: calls made under the key's budget and the retry policy. */
export interface HubReader {
  webhook(signal: AbortSignal): Promise<Webhook>;
  logs(offset: number, signal: AbortSignal): Promise<WebhookLogPage>;
}

export interface PollSettings {
  ctx: StoreContext;
  owner: string;
  leaseMs: number;
  backfillCount: number;
  backfillAgeMs: number;
  /** Backfill pages in flight at once. */
  parallelPages: number;
}

export interface PollResult {
  newLogs: number;
  /** The newest attempt known failed. */
  failing: boolean;
  /** The history is still filling up to the horizon: poll again soon. */
  backfilling: boolean;
}

const created = (log: WebhookLog) => Date.parse(log.createdDate);

export async function pollWebhook(
  settings: PollSettings,
  claimed: Claimed,
  hub: HubReader,
  signal: AbortSignal,
): Promise<PollResult> {
  const { ctx, owner, leaseMs } = settings;
  const webhookId = claimed.state.webhook_id;
  const state = { ...claimed.state };
  await recordWebhook(ctx, owner, await hub.webhook(signal), leaseMs);

  let newLogs = 0;
  let newest: WebhookLog | undefined;
  if (state.head_id !== null || state.tail_offset === null) {
    const top = await readTop(settings, state.head_id, hub, signal);
    newest = top.logs[0];
    const cursor: CursorChange = { head_id: newest?.id.toLowerCase() ?? state.head_id };
    if (top.gap) {
      // More arrived since the last poll than the horizon keeps: the store holds them from here.
      Object.assign(cursor, {
        tail_offset: null,
        history_complete: 0,
        complete_from: created(top.logs.at(-1)!),
      });
    } else if (state.tail_offset !== null && top.headIndex) {
      cursor.tail_offset = state.tail_offset + top.headIndex;
    }
    if (top.logs.length > 0 || cursor.tail_offset !== undefined) {
      newLogs += await writeLogs(ctx, owner, webhookId, top.logs, cursor, leaseMs);
      Object.assign(state, cursor);
    }
  }

  if (state.tail_offset !== null) {
    await backfill(settings, state, hub, signal, async (step) => {
      newLogs += await writeLogs(ctx, owner, webhookId, step.logs, step.cursor, leaseMs);
      newest ??= state.head_id === null ? step.logs[0] : undefined;
      Object.assign(state, step.cursor);
    });
  }

  return {
    newLogs,
    failing: newest ? newest.status !== "Success" : claimed.state.streak_since !== null,
    backfilling: state.tail_offset !== null,
  };
}

/** Newest pages until the log `headId` (or the end, or the horizon's count): the logs before it. */
async function readTop(settings: PollSettings, headId: string | null, hub: HubReader, signal: AbortSignal) {
  const logs: WebhookLog[] = [];
  const seen = new Set<string>();
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const page = await hub.logs(offset, signal);
    for (const [index, log] of page.data.entries()) {
      const id = log.id.toLowerCase();
      if (id === headId) return { logs, headIndex: offset + index, gap: false };
      if (!seen.has(id)) {
        seen.add(id);
        logs.push(log);
      }
    }
    if (page.data.length < PAGE_SIZE) return { logs, headIndex: 0, gap: false };
    if (logs.length >= settings.backfillCount) return { logs, headIndex: 0, gap: true };
  }
}

type BackfillStep = { logs: WebhookLog[]; cursor: CursorChange };

/**
 * Reads backfill pages from `state.tail_offset` on, `parallelPages` in flight, and hands them to
 * `write` in offset order: each time, every page that has arrived in order so far, as one step.
 * A page that arrives before the ones above it waits for them. `write` must move `state` to the
 * step's cursor; the reads stop when it reaches the horizon or the poll's share of pages.
 */
async function backfill(
  settings: PollSettings,
  state: Claimed["state"],
  hub: HubReader,
  signal: AbortSignal,
  write: (step: BackfillStep) => Promise<void>,
): Promise<void> {
  const first = state.tail_offset!;
  const limit = BACKFILL_PAGES_PER_POLL * settings.parallelPages;
  const oldestKept = Date.now() - settings.backfillAgeMs;
  // Pages read past the horizon are not needed: stopping aborts them.
  const done = new AbortController();
  const readSignal = AbortSignal.any([signal, done.signal]);
  const queue: Array<{ read: Promise<WebhookLogPage>; page?: WebhookLogPage }> = [];
  let requested = 0;
  const request = () => {
    while (queue.length < settings.parallelPages && requested < limit) {
      const slot: (typeof queue)[number] = { read: hub.logs(first + requested * PAGE_SIZE, readSignal) };
      slot.read.then((page) => (slot.page = page)).catch(() => undefined);
      queue.push(slot);
      requested++;
    }
  };
  try {
    request();
    while (queue.length > 0 && state.tail_offset !== null) {
      const pages = [await queue.shift()!.read];
      // Answers that came in during the last write are taken in first, so one write holds them all.
      await new Promise((resolve) => setImmediate(resolve));
      while (queue[0]?.page) pages.push(queue.shift()!.page!);
      request();
      await write(takePages(settings, state, pages, oldestKept));
    }
  } finally {
    done.abort();
  }
}

/** Consecutive backfill pages from `state.tail_offset`: the logs within the horizon, and the cursor after them. */
function takePages(
  settings: PollSettings,
  state: Claimed["state"],
  pages: readonly WebhookLogPage[],
  oldestKept: number,
): BackfillStep {
  const tail = state.tail_offset!;
  const logs: WebhookLog[] = [];
  const seen = new Set<string>();
  let read = 0;
  let kept = 0;
  let stop: "end" | "age" | "count" | null = null;
  for (const page of pages) {
    read += page.data.length;
    for (const log of page.data) {
      if (created(log) < oldestKept) stop = "age";
      else if (state.backfill_read + kept >= settings.backfillCount) stop = "count";
      if (stop) break;
      kept++;
      // Logs added while the pages were read shift the later ones: the same log may come twice.
      const id = log.id.toLowerCase();
      if (!seen.has(id)) {
        seen.add(id);
        logs.push(log);
      }
    }
    if (!stop && page.data.length < PAGE_SIZE) stop = "end";
    if (stop) break;
  }
  if (!stop && state.backfill_read + kept >= settings.backfillCount) stop = "count";
  const oldest = logs.length > 0 ? created(logs.at(-1)!) : null;
  const cursor: CursorChange = {
    head_id: state.head_id ?? logs[0]?.id.toLowerCase() ?? null,
    tail_offset: stop ? null : tail + read,
    backfill_read: state.backfill_read + kept,
  };
  if (stop === "end") Object.assign(cursor, { history_complete: 1, complete_from: null });
  else if (stop === "age") cursor.complete_from = oldestKept;
  else if (oldest !== null) cursor.complete_from = Math.min(oldest, state.complete_from ?? oldest);
  return { logs, cursor };
}
