/** POST /api/webhooks/{id}/logs/{logId}/retry: the API does not offer retry, so nothing goes upstream. */
import { describe, expect, it } from "vitest";
import {
  ctx,
  errorOf,
  fakeHubForRoutes,
  LOG,
  request,
  signedInCookie,
  WEBHOOK,
} from "@/tests/support/route-requests";
import * as retryRoute from "@/app/api/webhooks/[webhookId]/logs/[logId]/retry/route";

const upstream = fakeHubForRoutes();

describe("POST /api/webhooks/{id}/logs/{logId}/retry", () => {
  it("answers 501 not_supported when signed in, sending nothing", async () => {
    const cookie = await signedInCookie();
    const response = await retryRoute.POST(
      request("POST", "/x", { cookie }),
      ctx({ webhookId: WEBHOOK, logId: LOG }),
    );
    expect(response.status).toBe(501);
    const error = await errorOf(response);
    expect(error.code).toBe("not_supported");
    expect(error.message).toMatch(/does not offer retry yet/);
    expect(upstream.requests).toHaveLength(0);
  });

  it("is 401 without a session and 400 for bad ids", async () => {
    expect(
      (await retryRoute.POST(request("POST", "/x"), ctx({ webhookId: WEBHOOK, logId: LOG }))).status,
    ).toBe(401);
    const cookie = await signedInCookie();
    const bad = await retryRoute.POST(
      request("POST", "/x", { cookie }),
      ctx({ webhookId: WEBHOOK, logId: "../x" }),
    );
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).fields?.logId).toBeDefined();
  });
});
