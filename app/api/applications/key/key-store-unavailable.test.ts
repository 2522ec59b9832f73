/**
 * Replacing a key while the watch store cannot be opened: the key is replaced all the same (the
 * live API does not need the store), and the answer says no watches could be handed over.
 */
import { describe, expect, it } from "vitest";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { sendJson } from "@/tests/support/fake-upstream";
import { request, signedInCookie } from "@/tests/support/route-requests";
import { applicationId } from "@/lib/server/session/key-hash";
import * as keyRoute from "@/app/api/applications/key/route";

const OLD = "first-key-7f3a9c2e5b1d4e6f8a0b";
const NEW = "rotated-key-4d5e6f708192a3b4c5d6";

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_SANDBOX: "",
  // Under a file, so no directory can be made for it.
  WATCH_DB: "/dev/null/watch.sqlite",
  WATCH_IN_CONSOLE: "0",
});

describe("with the watch store unavailable", () => {
  it("replaces the key and answers watchesHandedOver: null", async () => {
    fake.current.handle = (req, res) =>
      req.headers["x-api-key"] === NEW ? sendJson(res, 404, {}) : sendJson(res, 401, {});
    const cookie = await signedInCookie(OLD);
    const response = await keyRoute.POST(
      request("POST", "/api/applications/key", { body: { app: applicationId(OLD), apiKey: NEW }, cookie }),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { application: { id: string }; watchesHandedOver: null };
    expect(body).toEqual({
      application: expect.objectContaining({ id: applicationId(NEW) }),
      watchesHandedOver: null,
      handedOver: null,
    });
    expect(response.headers.get("set-cookie")).toBeTruthy();
  });
});
