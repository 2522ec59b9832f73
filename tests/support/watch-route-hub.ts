/**
 * TEST ONLY (vitest). What the watch route tests share: a real (embedded, in-memory) store and a
 * fake hub where each key reads only its application's webhooks (a key it does not list is
 * rejected), reset before each test with nothing watched and no alert settings. FIRST reads A and B; SECOND reads
 * OTHER; ROTATED is FIRST's key after a rotation, which a test gives its webhooks (`reads`).
 */
import { listWatches, removeWatch } from "@/lib/server/watch/watches";
import { beforeEach } from "vitest";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { forgetSharedReadsForTests } from "@/lib/server/hub/shared-reads";
import { applicationId } from "@/lib/server/session/key-hash";
import { sharedStoreContext } from "@/lib/server/store/context";
import { fakeWebhook, sendJson, type FakeUpstream } from "@/tests/support/fake-upstream";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";

export const FIRST = "first-key-7f3a9c2e5b1d4e6f8a0b";
export const SECOND = "second-key-0a1b2c3d4e5f60718293";
export const ROTATED = "rotated-key-4d5e6f708192a3b4c5d6";
export const A = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
export const B = "1c8f6b5d-9a1f-4b6c-8d2e-3f4a5b6c7d8e";
export const OTHER = "2d9a7c6e-0b2a-4c7d-9e3f-4a5b6c7d8e9f";

export interface WatchRouteHub {
  readonly upstream: FakeUpstream;
  /** Which webhooks each key reads; a key not listed is rejected (401). */
  reads: Record<string, string[]>;
}

/** Call at the top of a test file. */
export function watchRouteHub(): WatchRouteHub {
  const fake = fakeUpstreamPerTest({
    SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
    HUB_TIMEOUT_MS: "800",
    HUB_SANDBOX: "",
    WATCH_DB: ":memory:",
    WATCH_IN_CONSOLE: "0",
  });
  const hub: WatchRouteHub = {
    get upstream() {
      return fake.current;
    },
    reads: {},
  };
  beforeEach(async () => {
    signInLimiter.reset();
    forgetSharedReadsForTests();
    hub.reads = { [FIRST]: [A, B], [SECOND]: [OTHER] };
    fake.current.handle = (req, res) => {
      const readable = hub.reads[String(req.headers["x-api-key"])];
      if (!readable) return sendJson(res, 401, { message: "Unauthorized" });
      const id = readable.find((webhookId) => req.url?.endsWith(`/webhook/${webhookId}`));
      if (id)
        return sendJson(res, 200, {
          ...fakeWebhook(id),
          endpoint: `https://${id.slice(0, 4)}.example.test/hook`,
        });
      return sendJson(res, 404, { message: "Not found" });
    };
    const store = await sharedStoreContext();
    const appIds = [FIRST, SECOND, ROTATED].map(applicationId);
    for (const watch of await listWatches(store, appIds)) await removeWatch(store, appIds, watch.webhookId);
    const { db } = await sharedStoreContext();
    for (const table of ["alert_destinations", "alert_deliveries", "alert_rules", "watch_keys"] as const)
      await db.deleteFrom(table).where("app_id", "in", appIds).execute();
  });
  return hub;
}
