import { describe, expect, it } from "vitest";
import { DEFAULT_AFTER_SIGN_IN, safeNextPath } from "@/lib/domain/safe-next";
import { OPEN_REDIRECT_VARIANTS } from "@/tests/support/open-redirect-variants";

/** Where a browser on the console goes with `Location: <path>` (or `location.assign(path)`). */
function landsOn(path: string): URL {
  return new URL(path, "https://console.example/login?next=x");
}

describe("safeNextPath", () => {
  it("keeps paths of this console, as they normalise", () => {
    expect(safeNextPath("/webhooks/abc?status=Failed&page=2")).toBe("/webhooks/abc?status=Failed&page=2");
    expect(safeNextPath("/webhooks#x")).toBe("/webhooks#x");
    expect(safeNextPath("/overview?failing=true&q=a%20b")).toBe("/overview?failing=true&q=a%20b");
    expect(safeNextPath("/")).toBe("/");
    expect(safeNextPath("/@evil.example")).toBe("/@evil.example");
  });

  it.each([null, undefined, "", "/".repeat(2001)])("falls back to the default for %j", (next) => {
    expect(safeNextPath(next)).toBe(DEFAULT_AFTER_SIGN_IN);
  });

  it.each(OPEN_REDIRECT_VARIANTS)("sends %j to a path of the console, never off it", (next) => {
    const path = safeNextPath(next);
    expect(path).toMatch(/^\/(?![/\\])/);
    expect(path).not.toMatch(/[\\\s]/);
    expect(landsOn(path).origin).toBe("https://console.example");
    // What is kept is what the browser is sent: it normalises to itself.
    expect(safeNextPath(path)).toBe(path);
    expect(landsOn(path).pathname).not.toMatch(/^\/(login|api)(\/|$)/i);
    expect(path).not.toContain("evil.example");
  });
});
