/**
 * `GET …/logs/{logId}/last-success`: the last success before a delivery, read from a fake hub's
 * history newest first and stopping there; "none" when the history has no older success, said
 * to be partial at the scan's cap; 404 for a delivery not in the history.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { LastSuccessAnswer } from "@/lib/domain/handover/last-success";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { resetHistoryForTests } from "@/lib/server/history/scan";
import { sendJson } from "@/tests/support/fake-upstream";
import { ctx, errorOf, request, signedInCookie, WEBHOOK } from "@/tests/support/route-requests";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import * as route from "@/app/api/webhooks/[webhookId]/logs/[logId]/last-success/route";

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_TIMEOUT_MS: "2000",
  HUB_SANDBOX: "",
  HISTORY_SCAN_CAP: "150",
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
beforeEach(() => {
  resetHistoryForTests();
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
    });
    // 3 pages of 50 reach log 120; none of the rest is read.
    expect(fake.current.requests.length).toBeLessThanOrEqual(3);
  });

  it("is none when the history has no success before it, and says when the cap cut the reading short", async () => {
    logs = history(1);
    expect(await (await lastSuccess(id(100))).json()).toEqual({
      lastSuccess: null,
      partial: expect.stringMatching(/^No success among the newest 150 of 200 deliveries \(the scan's cap\)/),
    });
    logs = history(1).slice(0, 120);
    expect(await (await lastSuccess(id(100))).json()).toEqual({ lastSuccess: null, partial: null });
  });

  it("answers 404 for a delivery the history does not hold, and 400 for an ID that is not a UUID", async () => {
    logs = history(120);
    const missing = await lastSuccess(id(999));
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).message).toMatch(/is not among the newest 150 of 200 deliveries/);
    const bad = await lastSuccess("not-a-uuid");
    expect(bad.status).toBe(400);
    expect(fake.current.requests.length).toBe(0);
  });
});
