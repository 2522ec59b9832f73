/**
 * The watch routes when the store cannot be opened (its database file cannot be created): a 503
 * that says the store is unavailable, for the overview and for a watch, and nothing reaches the
 * hub for the overview. The rest of the console (the live API) does not depend on it.
 */
import { describe, expect, it } from "vitest";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { fakeWebhook, sendJson } from "@/tests/support/fake-upstream";
import { signedInCookie } from "@/tests/support/signed-in";
import * as watchesRoute from "@/app/api/watches/route";
import * as webhookRoute from "@/app/api/webhooks/[webhookId]/route";

const ORIGIN = "http://console.test:3000";
const KEY = "first-key-7f3a9c2e5b1d4e6f8a0b";
const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_SANDBOX: "",
  // Under a file, so no directory can be made for it.
  WATCH_DB: "/dev/null/watch.sqlite",
  WATCH_IN_CONSOLE: "0",
});

function request(method: string, path: string, init: { body?: unknown; cookie?: string } = {}) {
  const headers = new Headers({ host: "console.test:3000", origin: ORIGIN });
  if (init.cookie) headers.set("cookie", init.cookie);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  return new Request(`${ORIGIN}${path}`, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

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
