import { afterEach, describe, expect, it, vi } from "vitest";
import { logRequest, requestIdOf, routePattern, type RequestLogLine } from "@/lib/server/http/request-log";

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

describe("logRequest", () => {
  afterEach(() => vi.restoreAllMocks());

  /** The one line `logRequest(line)` writes (and that it writes only one). */
  function lineOf(line: RequestLogLine): Record<string, unknown> {
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    logRequest(line);
    expect(stdout).toHaveBeenCalledTimes(1);
    return JSON.parse(String(stdout.mock.calls[0]![0])) as Record<string, unknown>;
  }

  it("writes one structured JSON line: level, ISO time, message and the request's fields", () => {
    const line = lineOf({
      requestId: "r-1",
      method: "GET",
      route: "/api/webhooks/[webhookId]/logs",
      status: 200,
      durationMs: 12.345,
      upstreamStatus: 200,
      upstreamShared: true,
    });
    expect(line).toEqual({
      level: "info",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      msg: "api request",
      requestId: "r-1",
      method: "GET",
      route: "/api/webhooks/[webhookId]/logs",
      status: 200,
      durationMs: 12.3,
      upstreamStatus: 200,
      upstreamShared: true,
    });
  });

  it("says when the client went away, still in one line with no stack", () => {
    const line = lineOf({
      requestId: "r-2",
      method: "POST",
      route: "/api/messages/[channelKind]",
      status: 499,
      durationMs: 3,
      clientAborted: true,
    });
    expect(line).toMatchObject({
      level: "info",
      msg: "client abort",
      status: 499,
      route: "/api/messages/[channelKind]",
    });
    expect(line).not.toHaveProperty("upstreamStatus");
    expect(line).not.toHaveProperty("clientAborted");
  });
});
