/**
 * TEST ONLY. Route tests against a fake hub that knows one key: with it, webhook WEBHOOK is
 * found and any other is not (404); any other key is rejected (401), and so is that key while
 * `accepting` is false (a key rotated or revoked since). Sign-in counts and shared reads start
 * afresh in each test.
 */
import { beforeEach } from "vitest";
import { fakeWebhook, sendJson, type FakeUpstream } from "@/tests/support/fake-upstream";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { forgetSharedReadsForTests } from "@/lib/server/hub/shared-reads";

export const CONSOLE_HOST = "console.test:3000";
export const CONSOLE_ORIGIN = `http://${CONSOLE_HOST}`;
export const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";

export interface OneKeyHub {
  readonly upstream: FakeUpstream;
  accepting: boolean;
}

export function oneKeyHub(key: string): OneKeyHub {
  const fake = fakeUpstreamPerTest({
    SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
    HUB_TIMEOUT_MS: "800",
    HUB_SANDBOX: "",
  });
  const hub = {
    accepting: true,
    get upstream() {
      return fake.current;
    },
  };
  beforeEach(() => {
    signInLimiter.reset();
    forgetSharedReadsForTests();
    hub.accepting = true;
    fake.current.handle = (req, res) => {
      if (!hub.accepting || req.headers["x-api-key"] !== key)
        return sendJson(res, 401, { message: "Unauthorized" });
      if (req.url?.endsWith(WEBHOOK)) return sendJson(res, 200, fakeWebhook(WEBHOOK));
      return sendJson(res, 404, { message: "Not found" });
    };
  });
  return hub;
}
