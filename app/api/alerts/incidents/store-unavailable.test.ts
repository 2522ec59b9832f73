/** `GET /api/alerts/incidents` when the store cannot be opened: 503 store_unavailable, as the other alert routes. */
import { describe, expect, it } from "vitest";
import { errorOf, request, signedInCookie } from "@/tests/support/route-requests";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import * as incidentsRoute from "@/app/api/alerts/incidents/route";

const KEY = "first-key-7f3a9c2e5b1d4e6f8a0b";

fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_SANDBOX: "",
  // Under a file, so no directory can be made for it.
  WATCH_DB: "/dev/null/watch.sqlite",
  WATCH_IN_CONSOLE: "0",
});

describe("with the store unavailable", () => {
  it("answers 503 store_unavailable, without the key", async () => {
    const response = await incidentsRoute.GET(
      request("GET", "/api/alerts/incidents", { cookie: await signedInCookie(KEY) }),
    );
    expect(response.status).toBe(503);
    const error = await errorOf(response);
    expect(error.code).toBe("store_unavailable");
    expect(error.message).not.toContain(KEY);
  });
});
