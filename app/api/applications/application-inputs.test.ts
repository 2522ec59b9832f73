/**
 * The Applications page's inputs: a name over its cap is refused whole with the cap, and a
 * webhook ID looked up in capitals is found and opened under its lowercase URL.
 */
import { describe, expect, it } from "vitest";
import { fakeWebhook, sendJson } from "@/tests/support/fake-upstream";
import { request, errorOf, fakeHubForRoutes, signedInCookie } from "@/tests/support/route-requests";
import * as applicationsRoute from "@/app/api/applications/route";
import * as lookRoute from "@/app/api/applications/look/route";

const FIRST = "first-key-7f3a9c2e5b1d4e6f8a0b";
const SECOND = "second-key-0a1b2c3d4e5f60718293";
const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";

/** The hub: SECOND sees WEBHOOK (asked lowercase); FIRST sees none. */
const fake = fakeHubForRoutes((req, res) =>
  req.headers["x-api-key"] === SECOND && req.url?.endsWith(`/webhook/${WEBHOOK}`)
    ? sendJson(res, 200, fakeWebhook(WEBHOOK))
    : sendJson(res, req.url?.includes("/webhook/") ? 404 : 200, fakeWebhook()),
);

describe("application inputs", () => {
  it("refuses a name over 40 characters whole, with the cap, and stores nothing", async () => {
    const cookie = await signedInCookie(FIRST);
    fake.requests.length = 0;
    const response = await applicationsRoute.POST(
      request("POST", "/api/applications", { body: { name: "x".repeat(41), apiKey: SECOND }, cookie }),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe("Name: shorten it to 40 characters or fewer (it has 41).");
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(fake.requests).toHaveLength(0);
  });

  it("looks up a webhook ID typed in capitals with spaces, and opens its lowercase URL", async () => {
    let cookie = await signedInCookie(FIRST);
    const added = await applicationsRoute.POST(
      request("POST", "/api/applications", { body: { name: "Second", apiKey: SECOND }, cookie }),
    );
    expect(added.status).toBe(201);
    cookie = added.headers.get("set-cookie")!.split(";")[0]!;
    const response = await lookRoute.POST(
      request("POST", "/api/applications/look", {
        form: { webhookId: ` ${WEBHOOK.toUpperCase()} ` },
        cookie,
      }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toMatch(new RegExp(`^/webhooks/${WEBHOOK}\\?app=[0-9a-f]{16}$`));
  });
});
