/**
 * The history routes when the console's store cannot be opened (its database file cannot be
 * created): every history question is answered from the store, so they answer 503 saying so and
 * what still works, and nothing is asked of the hub.
 */
import { describe, expect, it } from "vitest";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { fakeLogPage, servesLogs } from "@/tests/support/fake-upstream";
import { request, signedInCookie, WEBHOOK } from "@/tests/support/route-requests";
import * as scanRoute from "@/app/api/webhooks/[webhookId]/history/route";
import * as exportRoute from "@/app/api/webhooks/[webhookId]/history/export/route";
import * as findRoute from "@/app/api/webhooks/[webhookId]/history/find/route";

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_SANDBOX: "",
  // Under a file, so no directory can be made for it.
  WATCH_DB: "/dev/null/watch.sqlite",
  WATCH_IN_CONSOLE: "0",
});

describe("with the store unavailable", () => {
  it.each([
    ["the filtered history", scanRoute.GET, "?status=Failed"],
    ["an export", exportRoute.GET, "/export?format=json"],
    ["Find", findRoute.GET, `/find?q=${WEBHOOK}`],
  ])(
    "%s answers 503, says the live table still works, and asks nothing of the hub",
    async (_name, route, path) => {
      fake.current.handle = servesLogs(fakeLogPage(WEBHOOK).data);
      const cookie = await signedInCookie("store-down-key-0123456789abcdef");
      fake.current.requests.length = 0;
      const answer = await route(request("GET", `/api/webhooks/${WEBHOOK}/history${path}`, { cookie }), {
        params: Promise.resolve({ webhookId: WEBHOOK }),
      });
      expect(answer.status).toBe(503);
      const body = (await answer.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("store_unavailable");
      expect(body.error.message).toMatch(/database is not answering.*log table still reads the hub/);
      expect(fake.current.requests).toHaveLength(0);
    },
  );
});
