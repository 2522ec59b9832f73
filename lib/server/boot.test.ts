/**
 * A console server starting (`register` → startNodeServer): a configuration it cannot run with
 * stops it before it takes a request, with one line naming the variable. (That `next start` runs
 * `register` at all is shown end to end by tests/e2e/scale/shared-state.spec.ts, where a bad
 * REDIS_URL stops the built console.)
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { startNodeServer } from "@/lib/server/boot";

afterEach(() => {
  restoreEnv();
  vi.restoreAllMocks();
});

const GOOD = "a-good-session-secret-of-32-chars!!";

describe("a console server starting with a configuration it cannot run with", () => {
  it.each([
    [{ SESSION_SECRET: "too-short" }, /SESSION_SECRET must be at least 32 characters/],
    [
      { SESSION_SECRET: GOOD, SESSION_SECRET_PREVIOUS: "old" },
      /SESSION_SECRET_PREVIOUS entry 1 must be at least 32/,
    ],
  ])("%j: exits 1, naming it", async (env, named) => {
    stubEnv({ WATCH_DB: ":memory:", WATCH_IN_CONSOLE: "0", ...env });
    const exit = vi.spyOn(process, "exit").mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await expect(startNodeServer()).rejects.toThrow("exit 1");
    expect(exit).toHaveBeenCalledWith(1);
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0]![0])).toMatch(/^\[console\] Refusing to start: /);
    expect(String(error.mock.calls[0]![0])).toMatch(named);
  });
});
