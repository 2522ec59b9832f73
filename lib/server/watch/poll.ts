import "server-only";
import type { WebhookLog, WebhookLogPage } from "@/lib/domain/hub-schemas";
import { olderPages, PAGE_SIZE, readNewest, type HubReader } from "@/lib/server/history/reader";
import type { StoreContext } from "@/lib/server/store/context";
import { recordWebhook, writeLogs, type Claimed, type CursorChange } from "@/lib/server/watch/cursor";

/**
 * One poll of one watched webhook: the webhook itself, its newest logs down to the newest stored,
 * then, while the history is filling, older pages up to the backfill horizon, each batch written
 * with the cursor after it, so a poll cut short is taken up by the next without a gap or a duplicate.
 */

/** Backfill pages one poll reads, per page in flight, before it lets other webhooks have a turn. */
const BACKFILL_PAGES_PER_POLL = 40;

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
    const top = await readNewest(hub, state.head_id, settings.backfillCount, signal);
    newest = top.logs[0];
    const cursor: CursorChange = { head_id: newest?.id.toLowerCase() ?? state.head_id, hub_total: top.total };
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
    if (top.logs.length > 0 || cursor.tail_offset !== undefined || top.total !== state.hub_total) {
      newLogs += (await writeLogs(ctx, owner, webhookId, top.logs, cursor, leaseMs)).length;
      Object.assign(state, cursor);
    }
  }

  if (state.tail_offset !== null) {
    const oldestKept = Date.now() - settings.backfillAgeMs;
    const parallel = settings.parallelPages;
    const maxPages = BACKFILL_PAGES_PER_POLL * parallel;
    for await (const pages of olderPages(hub, state.tail_offset, { parallel, maxPages }, signal)) {
      const step = takePages(settings, state, pages, oldestKept);
      newLogs += (await writeLogs(ctx, owner, webhookId, step.logs, step.cursor, leaseMs)).length;
      newest ??= state.head_id === null ? step.logs[0] : undefined;
      Object.assign(state, step.cursor);
      if (state.tail_offset === null) break;
    }
  }

  return {
    newLogs,
    failing: newest ? newest.status !== "Success" : claimed.state.streak_since !== null,
    backfilling: state.tail_offset !== null,
  };
}

/** Consecutive backfill pages from `state.tail_offset`: the logs within the horizon, and the cursor after them. */
function takePages(
  settings: PollSettings,
  state: Claimed["state"],
  pages: readonly WebhookLogPage[],
  oldestKept: number,
) {
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
