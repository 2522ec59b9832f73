/**
 * The watch routes when the store cannot be opened (its database file cannot be created): a 503
 * that says the store is unavailable, for the overview and for a watch, and nothing reaches the
 * hub for the overview. The rest of the console (the live API) does not depend on it.
 */
import { describe, expect, it } from "vitest";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { fakeWebhook, sendJson } from "@/tests/support/fake-upstream";
import { request, signedInCookie, WEBHOOK } from "@/tests/support/route-requests";
import * as watchesRoute from "@/app/api/watches/route";
import * as webhookRoute from "@/app/api/webhooks/[webhookId]/route";

const KEY = "first-key-7f3a9c2e5b1d4e6f8a0b";

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_SANDBOX: "",
  // Under a file, so no directory can be made for it.
  WATCH_DB: "/dev/null/watch.sqlite",
  WATCH_IN_CONSOLE: "0",
});

describe("with the store unavailable", () => {
  it("the overview and watching answer 503 store_unavailable, and webhook pages still read the hub", async () => {
    fake.current.handle = (_req, res) => sendJson(res, 200, fakeWebhook(WEBHOOK));
    const cookie = await signedInCookie(KEY);

    const overview = await watchesRoute.GET(request("GET", "/api/watches", { cookie }));
    expect(overview.status).toBe(503);
    const { error } = (await overview.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("store_unavailable");
    expect(error.message).not.toContain(KEY);
    expect(fake.current.requests).toHaveLength(0);

    const watched = await watchesRoute.POST(
      request("POST", "/api/watches", { body: { webhookId: WEBHOOK }, cookie }),
    );
    expect(watched.status).toBe(503);

    const live = await webhookRoute.GET(request("GET", `/api/webhooks/${WEBHOOK}`, { cookie }), {
      params: Promise.resolve({ webhookId: WEBHOOK }),
    });
    expect(live.status).toBe(200);
  });
});
