import { describe, expect, it } from "vitest";
import { requestIdOf, routePattern } from "@/lib/server/http/request-log";

const ID = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";

describe("routePattern", () => {
  it("names each param's segment, in order, also when two params hold the same value", () => {
    expect(routePattern(`/api/webhooks/${ID}/logs`, { webhookId: ID })).toBe(
      "/api/webhooks/[webhookId]/logs",
    );
    expect(routePattern(`/api/webhooks/${ID}/logs/${ID}/retry`, { webhookId: ID, logId: ID })).toBe(
      "/api/webhooks/[webhookId]/logs/[logId]/retry",
    );
    expect(routePattern("/api/messages/sms", { channelKind: "sms" })).toBe("/api/messages/[channelKind]");
    expect(routePattern("/api/session", {})).toBe("/api/session");
  });

  it("names a catch-all's segments once, and an encoded segment by its decoded value", () => {
    expect(routePattern("/api/a/b/c", { path: ["a", "b", "c"] })).toBe("/api/[...path]");
    expect(routePattern("/api/webhooks/a%20b", { webhookId: "a b" })).toBe("/api/webhooks/[webhookId]");
  });
});

describe("requestIdOf", () => {
  const withId = (id?: string) =>
    new Request("http://console.test/api/session", {
      headers: id === undefined ? {} : { "x-request-id": id },
    });

  it("keeps a plain token and replaces anything else with a UUID", () => {
    expect(requestIdOf(withId("abc-123_x.y:z"))).toBe("abc-123_x.y:z");
    for (const bad of [undefined, "", "a b", "x".repeat(129), "<script>"]) {
      expect(requestIdOf(withId(bad))).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
  });
});
