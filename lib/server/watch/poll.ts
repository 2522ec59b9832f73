import "server-only";
import type { Webhook, WebhookLog, WebhookLogPage } from "@/lib/domain/hub-schemas";
import type { StoreContext } from "@/lib/server/watch/context";
import { recordWebhook, writeLogs, type Claimed, type CursorChange } from "@/lib/server/watch/cursor";

/**
 * One poll of one watched webhook: the webhook itself (active, numberOfErrors), then its newest
 * logs page by page until the newest stored log (incremental), then, while the history is still
 * filling, older pages up to the backfill horizon. Each batch of logs is written with the cursor
 * that follows it, so a poll cut short anywhere is taken up again by the next without a gap or a
 * duplicate. The hub lists newest first and only adds logs, so offsets only shift forward: a
 * page read late holds logs already seen (dropped by id), never skips one.
 */

export const PAGE_SIZE = 50;
/** Backfill pages one poll reads before it lets other webhooks have a turn. */
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
  /** Backfill pages read at once. */
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

  for (
    let pages = 0;
    state.tail_offset !== null && pages < BACKFILL_PAGES_PER_POLL;
    pages += settings.parallelPages
  ) {
    const step = await readBackfill(settings, state, hub, signal);
    newLogs += await writeLogs(ctx, owner, webhookId, step.logs, step.cursor, leaseMs);
    newest ??= state.head_id === null ? step.logs[0] : undefined;
    Object.assign(state, step.cursor);
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

/** The next pages of the backfill, read at once, and the cursor after them. */
async function readBackfill(
  settings: PollSettings,
  state: Claimed["state"],
  hub: HubReader,
  signal: AbortSignal,
): Promise<{ logs: WebhookLog[]; cursor: CursorChange }> {
  const tail = state.tail_offset!;
  const offsets = Array.from({ length: settings.parallelPages }, (_, i) => tail + i * PAGE_SIZE);
  const pages = await Promise.all(offsets.map((offset) => hub.logs(offset, signal)));
  const oldestKept = Date.now() - settings.backfillAgeMs;
  const logs: WebhookLog[] = [];
  let read = 0;
  let stop: "end" | "age" | "count" | null = null;
  for (const page of pages) {
    read += page.data.length;
    for (const log of page.data) {
      if (created(log) < oldestKept) stop = "age";
      else if (state.backfill_read + logs.length >= settings.backfillCount) stop = "count";
      if (stop) break;
      logs.push(log);
    }
    if (!stop && page.data.length < PAGE_SIZE) stop = "end";
    if (stop) break;
  }
  if (!stop && state.backfill_read + logs.length >= settings.backfillCount) stop = "count";
  const oldest = logs.length > 0 ? created(logs.at(-1)!) : null;
  const cursor: CursorChange = {
    head_id: state.head_id ?? logs[0]?.id.toLowerCase() ?? null,
    tail_offset: stop ? null : tail + read,
    backfill_read: state.backfill_read + logs.length,
  };
  if (stop === "end") Object.assign(cursor, { history_complete: 1, complete_from: null });
  else if (stop === "age") cursor.complete_from = oldestKept;
  else if (oldest !== null) cursor.complete_from = Math.min(oldest, state.complete_from ?? oldest);
  return { logs, cursor };
}
