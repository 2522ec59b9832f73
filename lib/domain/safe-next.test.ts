import { describe, expect, it } from "vitest";
import { DEFAULT_AFTER_SIGN_IN, safeNextPath } from "@/lib/domain/safe-next";

describe("safeNextPath", () => {
  it("keeps paths of this console", () => {
    expect(safeNextPath("/webhooks/abc?status=Failed&page=2")).toBe("/webhooks/abc?status=Failed&page=2");
    expect(safeNextPath("/webhooks#x")).toBe("/webhooks#x");
  });

  it.each([
    null,
    undefined,
    "",
    "webhooks",
    "//evil.example/x",
    "/\\evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "/\t/evil.example",
    "/login",
    "/api/session",
    "/api/session/end?reason=x",
  ])("refuses %s", (next) => {
    expect(safeNextPath(next)).toBe(DEFAULT_AFTER_SIGN_IN);
  });
});
