/**
 * The history routes when the watch's store cannot be opened (its database file cannot be
 * created): questions are still answered, by the scan, and the answer says why the watch did not.
 */
import { describe, expect, it } from "vitest";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { fakeLogPage, servesLogs } from "@/tests/support/fake-upstream";
import { request, signedInCookie, WEBHOOK } from "@/tests/support/route-requests";
import * as scanRoute from "@/app/api/webhooks/[webhookId]/history/route";
import * as exportRoute from "@/app/api/webhooks/[webhookId]/history/export/route";

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_SANDBOX: "",
  // Under a file, so no directory can be made for it.
  WATCH_DB: "/dev/null/watch.sqlite",
  WATCH_IN_CONSOLE: "0",
});

describe("with the store unavailable", () => {
  it("the filtered history and exports are scanned from the hub, and say why", async () => {
    fake.current.handle = servesLogs(fakeLogPage(WEBHOOK).data);
    const cookie = await signedInCookie("store-down-key-0123456789abcdef");
    const params = { params: Promise.resolve({ webhookId: WEBHOOK }) };
    const query = new URLSearchParams({ status: "Failed" });

    const answer = await scanRoute.GET(
      request("GET", `/api/webhooks/${WEBHOOK}/history?${query}`, { cookie }),
      params,
    );
    expect(answer.status).toBe(200);
    const result = JSON.parse((await answer.text()).trim().split("\n").at(-1)!) as Record<string, unknown>;
    expect(result).toMatchObject({
      type: "result",
      matches: 1,
      source: { from: "scan", why: "the watch's database is not answering." },
    });

    const file = await exportRoute.GET(
      request("GET", `/api/webhooks/${WEBHOOK}/history/export?format=json`, { cookie }),
      params,
    );
    expect(file.status).toBe(200);
    expect(file.headers.get("x-history-source")).toBe("scan");
    expect(await file.json()).toHaveLength(1);
  });
});
