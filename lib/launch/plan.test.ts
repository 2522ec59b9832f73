import { describe, expect, it } from "vitest";
import { stopTimeoutMs } from "@/lib/launch/plan";

describe("stopTimeoutMs", () => {
  it("gives a child HUB_TIMEOUT_MS (default 10 s) plus 5 s to stop", () => {
    expect(stopTimeoutMs({})).toBe(15_000);
    expect(stopTimeoutMs({ HUB_TIMEOUT_MS: "2500" })).toBe(7500);
    expect(stopTimeoutMs({ HUB_TIMEOUT_MS: " " })).toBe(15_000);
    expect(stopTimeoutMs({ HUB_TIMEOUT_MS: "soon" })).toBe(15_000);
    expect(stopTimeoutMs({ HUB_TIMEOUT_MS: "-1" })).toBe(15_000);
  });
});
