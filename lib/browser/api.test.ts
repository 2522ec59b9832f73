import { describe, expect, it } from "vitest";
import { withPageApp } from "@/lib/browser/api";

describe("withPageApp: the page's application goes with every call", () => {
  it("adds the page's ?app= to a path, with or without a query of its own", () => {
    expect(withPageApp("/api/webhooks/x", "?app=0123456789abcdef&status=Failed")).toBe(
      "/api/webhooks/x?app=0123456789abcdef",
    );
    expect(withPageApp("/api/webhooks/x/logs?offset=0&limit=20", "?app=0123456789abcdef")).toBe(
      "/api/webhooks/x/logs?offset=0&limit=20&app=0123456789abcdef",
    );
  });

  it("leaves a path alone on a page without one, or when the path names one already", () => {
    expect(withPageApp("/api/session", "")).toBe("/api/session");
    expect(withPageApp("/api/x?app=fedcba9876543210", "?app=0123456789abcdef")).toBe(
      "/api/x?app=fedcba9876543210",
    );
  });
});
