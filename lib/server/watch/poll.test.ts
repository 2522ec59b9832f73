import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addWatches } from "@/lib/server/watch/watches";
import type { WebhookLog, WebhookLogPage } from "@/lib/domain/hub-schemas";
import { applicationId } from "@/lib/server/session/key-hash";
import type { StoreContext } from "@/lib/server/store/context";
import { claimDue, finishPoll } from "@/lib/server/watch/cursor";
import { pollWebhook, type PollSettings } from "@/lib/server/watch/poll";
import { PAGE_SIZE, type HubReader } from "@/lib/server/history/reader";

import { restoreEnv, stubEnv } from "@/tests/support/env";
import { WATCH_DATABASES, watchDatabases } from "@/tests/support/watch-databases";

const databases = watchDatabases();

const KEY = "key-of-the-poll-tests-0123456789";
const WEBHOOK_ID = "00000000-0000-4000-8000-00000000a001";
const LEASE_MS = 60_000;

let n = 0;
const uuid = () => `00000000-0000-4000-8000-${(++n).toString(16).padStart(12, "0")}`;

/** The hub's side of one webhook: its logs newest first, as the API lists them. */
class HubLogs {
  logs: WebhookLog[] = [];
  /** Offsets of the log pages asked for, and in the order their answers arrived. */
  asked: number[] = [];
  arrived: number[] = [];

  /** `count` new logs, each newer than every one before; one in five failed. */
  deliver(count: number): void {
    const base = Date.now() - 86_400_000 + this.logs.length * 1000;
    const fresh = Array.from({ length: count }, (_, i): WebhookLog => {
      const at = new Date(base + i * 1000).toISOString();
      const failed = (this.logs.length + i) % 5 === 0;
      return {
        id: uuid(),
        webhookId: WEBHOOK_ID,
        statusCode: failed ? 500 : 200,
        responseBody: failed ? "boom" : "ok",
        status: failed ? "Failed" : "Success",
        sendAt: at,
        createdDate: at,
        messageId: null,
        webhook: { id: WEBHOOK_ID, endpoint: "https://example.test/hook", eventType: "Message" },
      };
    });
    this.logs = [...fresh.reverse(), ...this.logs];
  }

  /**
   * A reader whose log pages take longer the lower their offset in each group of four, so pages
   * read at once arrive last first; `failAt` makes the page at that offset fail.
   */
  reader(failAt?: number): HubReader {
    return {
      webhook: async () => ({
        id: WEBHOOK_ID,
        endpoint: "https://example.test/hook",
        eventType: "Message",
        active: true,
        numberOfErrors: 0,
      }),
      logs: async (offset) => {
        // The page is what the hub holds when asked; its answer comes later.
        this.asked.push(offset);
        const data = this.logs.slice(offset, offset + PAGE_SIZE);
        await new Promise((resolve) => setTimeout(resolve, (3 - ((offset / PAGE_SIZE) % 4)) * 15));
        this.arrived.push(offset);
        if (offset === failAt) throw new Error("the hub went away");
        const page: WebhookLogPage = {
          data,
          pagination: { offset, limit: PAGE_SIZE, total: this.logs.length, totalPages: 0 },
        };
        return page;
      },
    };
  }
}

beforeEach(() => stubEnv({ SESSION_SECRET: "a-session-secret-for-tests-32-chars!" }));
afterEach(() => restoreEnv());

describe.each(WATCH_DATABASES)("a poll's backfill on %s", (kind) => {
  let ctx: StoreContext;
  let hub: HubLogs;
  let now: number;

  beforeEach(async () => {
    ctx = await databases.fresh(kind);
    hub = new HubLogs();
    now = Date.now() + 60_000;
    await addWatches(ctx, applicationId(KEY), KEY, [
      {
        webhook: {
          id: WEBHOOK_ID,
          endpoint: "https://example.test/hook",
          eventType: "Message",
          active: true,
          numberOfErrors: 0,
        },
      },
    ]);
  });

  const settings = (owner: string): PollSettings => ({
    ctx,
    owner,
    leaseMs: LEASE_MS,
    backfillCount: 100_000,
    backfillAgeMs: 7 * 86_400_000,
    parallelPages: 2,
  });

  /** One poll as the watcher makes it: claimed by `owner` (after any lease ran out), then released. */
  async function poll(owner: string, reader: HubReader) {
    now += 2 * LEASE_MS;
    const [claimed] = await claimDue(ctx, owner, 1, LEASE_MS, now);
    expect(claimed?.state.webhook_id).toBe(WEBHOOK_ID);
    const result = await pollWebhook(settings(owner), claimed!, reader, new AbortController().signal);
    await finishPoll(ctx, owner, WEBHOOK_ID, { nextPollAt: now, error: null }, now);
    return result;
  }

  const state = () => ctx.db.selectFrom("watch_state").selectAll().executeTakeFirstOrThrow();
  const storedIds = async () =>
    (await ctx.db.selectFrom("watch_logs").select("id").execute()).map((row) => row.id).sort();
  const hubIds = () => hub.logs.map((log) => log.id).sort();

  it("stores every log once when pages read at once arrive out of order, new logs arriving between polls", async () => {
    hub.deliver(4500);
    let polls = 0;
    for (let result = await poll("one", hub.reader()); result.backfilling; polls++) {
      // Logs added mid-backfill shift the older ones to higher offsets.
      hub.deliver(37);
      result = await poll("one", hub.reader());
    }
    expect(polls).toBeGreaterThan(0);
    // Pages did arrive out of order: one answered before a page above it.
    expect(hub.arrived.some((offset, i) => i > 0 && offset < hub.arrived[i - 1]!)).toBe(true);
    expect(await storedIds()).toEqual(hubIds());
    const done = await state();
    expect(done).toMatchObject({
      tail_offset: null,
      history_complete: 1,
      stored_logs: hub.logs.length,
      head_id: hub.logs[0]!.id,
    });
    const hours = await ctx.db.selectFrom("watch_log_hours").selectAll().execute();
    expect(hours.reduce((sum, h) => sum + h.success + h.failed, 0)).toBe(hub.logs.length);
  });

  it("taken up by another owner after a poll dies mid-backfill, with pages in flight, loses and repeats nothing", async () => {
    hub.deliver(900);
    const failAt = 7 * PAGE_SIZE;
    await expect(poll("first", hub.reader(failAt))).rejects.toThrow("the hub went away");
    // Pages after the failed one were in flight, but nothing past it was written: the cursor and the logs agree.
    expect(hub.asked.some((offset) => offset > failAt)).toBe(true);
    const cut = await state();
    expect(cut.tail_offset).toBe(failAt);
    expect(cut.stored_logs).toBe(failAt);
    expect((await storedIds()).length).toBe(failAt);

    hub.deliver(20);
    while ((await poll("second", hub.reader())).backfilling);
    expect(await storedIds()).toEqual(hubIds());
    expect(await state()).toMatchObject({ stored_logs: hub.logs.length, history_complete: 1 });
  });
});
