/**
 * TEST ONLY (vitest). Starts one fake hub for a test file (or describe block), points
 * HUB_BASE_URL at it with the given extra variables before each test, and clears what it
 * recorded; the environment is restored after each test.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { startFakeUpstream, type FakeUpstream } from "@/tests/support/fake-upstream";

export function fakeUpstreamPerTest(env: Record<string, string> = {}): { readonly current: FakeUpstream } {
  let upstream: FakeUpstream | undefined;
  const handle = {
    get current(): FakeUpstream {
      if (!upstream) throw new Error("the fake upstream is not started yet (use it inside a test)");
      return upstream;
    },
  };
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(async () => {
    await upstream?.close();
  });
  beforeEach(() => {
    stubEnv({ HUB_BASE_URL: handle.current.url, ...env });
    handle.current.requests.length = 0;
  });
  afterEach(() => restoreEnv());
  return handle;
}
