/**
 * `GET …/logs/{logId}/last-success`: the last success before a delivery, read from a fake hub's
 * history newest first and stopping there; "none" when the history has no older success, said
 * to be partial at the scan's cap; 404 for a delivery not in the history. The webhook's own
 * changes between the two come from the watch's timeline (a real embedded store), or are said to
 * be unknown for a webhook the application does not watch.
 */
import { addWatches, listWatches, removeWatch } from "@/lib/server/watch/watches";
import { beforeEach, describe, expect, it } from "vitest";
import type { LastSuccessAnswer } from "@/lib/domain/bundle/last-success";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { closeSharedStore, withStore } from "@/lib/server/store/context";
import { applicationId } from "@/lib/server/session/key-hash";
import { claimDue, recordWebhook } from "@/lib/server/watch/cursor";
import { sharedStoreContext } from "@/lib/server/store/context";
import { fakeWebhook } from "@/tests/support/fake-upstream";
import { sendJson } from "@/tests/support/fake-upstream";
import { ctx, errorOf, KEY, request, signedInCookie, WEBHOOK } from "@/tests/support/route-requests";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { storeLogs } from "@/tests/support/watch-databases";
import { stubEnv } from "@/tests/support/env";
import * as route from "@/app/api/webhooks/[webhookId]/logs/[logId]/last-success/route";

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_TIMEOUT_MS: "2000",
  HUB_SANDBOX: "",
  HISTORY_SCAN_CAP: "150",
  WATCH_DB: ":memory:",
  WATCH_IN_CONSOLE: "0",
});

const id = (n: number) => `11111111-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
const NOW = Date.now();

/** 200 logs, newest first: 0-119 fail, 120 succeeds, 121-199 fail again. */
function history(successAt: number | null): WebhookLog[] {
  return Array.from({ length: 200 }, (_, i) => {
    const ok = i === successAt;
    const at = new Date(NOW - i * 60_000).toISOString();
    return {
      id: id(i),
      webhookId: WEBHOOK,
      statusCode: ok ? 200 : 500,
      responseBody: ok ? '{"ok":true}' : '{"error":"database connection lost"}',
      status: ok ? "Success" : "Failed",
      sendAt: at,
      createdDate: at,
      messageId: null,
      webhook: { id: WEBHOOK, endpoint: "https://example.test/hook", eventType: "Message" },
    };
  });
}

let logs: WebhookLog[] = [];
beforeEach(async () => {
  await closeSharedStore();
  const store = await sharedStoreContext();
  for (const watch of await listWatches(store, [applicationId(KEY)])) {
    await removeWatch(store, [applicationId(KEY)], watch.webhookId);
  }
  fake.current.handle = (req, res) => {
    const url = new URL(req.url ?? "", "http://hub");
    const offset = Number(url.searchParams.get("offset"));
    const limit = Number(url.searchParams.get("limit"));
    sendJson(res, 200, {
      data: logs.slice(offset, offset + limit),
      pagination: { offset, limit, total: logs.length, totalPages: Math.ceil(logs.length / limit) },
    });
  };
});

async function lastSuccess(logId: string) {
  const cookie = await signedInCookie();
  fake.current.requests.length = 0;
  return route.GET(
    request("GET", `/api/webhooks/${WEBHOOK}/logs/${logId}/last-success`, { cookie }),
    ctx({ webhookId: WEBHOOK, logId }),
  );
}

describe("the last success before a delivery", () => {
  it("is the first success older than the delivery, and reading stops there", async () => {
    logs = history(120);
    const response = await lastSuccess(id(3).toUpperCase());
    expect(response.status).toBe(200);
    const answer = (await response.json()) as LastSuccessAnswer;
    expect(answer).toEqual({
      lastSuccess: expect.objectContaining({ id: id(120), statusCode: 200 }),
      partial: null,
      changes: { known: false, why: expect.stringMatching(/^This webhook is not watched, so its changes/) },
      source: expect.objectContaining({ watched: false, complete: false }),
    });
    // The newest page, then the pages below it until log 120: a few at once, never all 200 logs.
    expect(fake.current.requests.length).toBeLessThanOrEqual(1 + 4);
  });

  it("is none when the history has no success before it, and says when the cap cut the reading short", async () => {
    logs = history(1);
    expect(await (await lastSuccess(id(100))).json()).toEqual({
      lastSuccess: null,
      partial: expect.stringMatching(/^No success among the newest 1\d\d of 200 deliveries \(the cap\)/),
      changes: null,
      source: expect.objectContaining({ watched: false }),
    });
    await closeSharedStore();
    logs = history(1).slice(0, 120);
    expect(await (await lastSuccess(id(100))).json()).toEqual({
      lastSuccess: null,
      partial: null,
      changes: null,
      source: expect.objectContaining({ watched: false, complete: true }),
    });
  });

  it("carries the webhook's own changes between the two from the watch's timeline, and none outside them", async () => {
    logs = history(120);
    const successAt = NOW - 120 * 60_000;
    const failedAt = NOW - 3 * 60_000;
    const store = await sharedStoreContext();
    const db = await sharedStoreContext();
    await addWatches(store, applicationId(KEY), KEY, [{ webhook: fakeWebhook(WEBHOOK) }]);
    await claimDue(db, "test", 10, 60_000, Date.now() + 60_000);
    const poll = (at: number, active: boolean, numberOfErrors: number) =>
      recordWebhook(db, "test", { ...fakeWebhook(WEBHOOK), active, numberOfErrors }, 60_000, at);
    await poll(successAt - 60_000, true, 4); // before the success: not between them
    await poll(successAt + 60_000, true, 5);
    await poll(successAt + 120_000, false, 7);
    await poll(failedAt + 60_000, true, 9); // after the failure: not between them either

    const answer = (await (await lastSuccess(id(3))).json()) as LastSuccessAnswer;
    expect(answer.changes).toMatchObject({
      known: true,
      more: 0,
      flips: [false],
      errors: { from: 4, to: 7 },
    });
    if (!answer.changes?.known) throw new Error("the changes should be known");
    expect(
      answer.changes.events.map((e) => [
        e.kind,
        e.previous,
        e.kind === "active" ? e.active : e.numberOfErrors,
      ]),
    ).toEqual([
      ["errors", 4, 5],
      ["errors", 5, 7],
      ["active", true, false],
    ]);
  });

  it("answers 404 for a delivery the history does not hold, and 400 for an ID that is not a UUID", async () => {
    logs = history(120);
    const missing = await lastSuccess(id(999));
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).message).toMatch(/is not among the newest 1\d\d of 200 deliveries/);
    const bad = await lastSuccess("not-a-uuid");
    expect(bad.status).toBe(400);
    expect(fake.current.requests.length).toBe(0);
  });

  describe("of a watched webhook", () => {
    /** Watches the webhook and stores `stored` as the watcher does, its whole history read. */
    async function watchedWith(stored: WebhookLog[]) {
      await withStore((ctx) => addWatches(ctx, applicationId(KEY), KEY, [{ webhook: fakeWebhook(WEBHOOK) }]));
      await storeLogs(await sharedStoreContext(), WEBHOOK, stored, Date.now(), { history_complete: 1 });
    }

    it("is read from the watch's copy, with no call to the hub, beyond the cap too", async () => {
      logs = history(180);
      await watchedWith(logs);
      const response = await lastSuccess(id(3));
      expect(response.status).toBe(200);
      const answer = (await response.json()) as LastSuccessAnswer;
      expect(answer.lastSuccess).toMatchObject({ id: id(180), statusCode: 200 });
      expect(answer.partial).toBeNull();
      expect(answer.source).toMatchObject({ watched: true, complete: true, logs: 200 });
      expect(fake.current.requests.length).toBe(0);

      const none = (await (await lastSuccess(id(190))).json()) as LastSuccessAnswer;
      expect(none).toMatchObject({ lastSuccess: null, partial: null, source: { watched: true } });
      expect(fake.current.requests.length).toBe(0);
    });

    it("says it is not exact when the copy cut the success's body", async () => {
      stubEnv({ WATCH_BODY_CAP_BYTES: "1024" });
      await closeSharedStore();
      logs = history(120);
      logs[120] = { ...logs[120]!, responseBody: JSON.stringify({ ok: true, pad: "x".repeat(10_000) }) };
      await watchedWith(logs);
      const cut = (await (await lastSuccess(id(3))).json()) as LastSuccessAnswer;
      expect(cut.lastSuccess?.responseBody).toBe(logs[120]!.responseBody.slice(0, 1024));
      expect(cut.source).toMatchObject({ watched: true, cutBodies: 1 });
      expect(fake.current.requests.length).toBe(0);
    });

    it("reads the hub's newest page when the copy does not hold the delivery yet", async () => {
      logs = history(120);
      await watchedWith(logs.slice(2));
      const newer = (await (await lastSuccess(id(0))).json()) as LastSuccessAnswer;
      expect(newer.lastSuccess).toMatchObject({ id: id(120) });
      expect(newer.source).toMatchObject({ watched: true, logs: 200 });
      expect(fake.current.requests.length).toBe(1);
    });
  });
});
