import { afterEach, describe, expect, it } from "vitest";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { crossOriginReason, isLoopbackHost, isOurOrigin } from "@/lib/server/http/same-origin";

function post(headers: Record<string, string>): Request {
  return new Request("http://internal:3000/api/session", { method: "POST", headers });
}

afterEach(() => {
  restoreEnv();
});

describe("isOurOrigin (Host-derived)", () => {
  const host = { host: "127.0.0.1:3150" };
  it.each([
    ["http://127.0.0.1:3150", true],
    ["https://127.0.0.1:3150", true], // scheme unknown without TRUST_PROXY
    ["http://127.0.0.1:3151", false],
    ["http://127.0.0.1", false],
    ["http://localhost:3150", false],
    ["http://127.0.0.1.evil.com:3150", false],
    ["http://evil.com", false],
    ["null", false],
    ["", false],
    ["http://127.0.0.1:3150/", false],
    ["http://user@127.0.0.1:3150", false],
    ["file://", false],
    ["javascript:alert(1)", false],
  ])("%s → %s", (origin, expected) => {
    expect(isOurOrigin(post(host), origin)).toBe(expected);
  });

  it("normalises case and default ports", () => {
    expect(isOurOrigin(post({ host: "Console.Example.com:443" }), "https://console.example.com")).toBe(true);
    expect(isOurOrigin(post({ host: "console.example.com" }), "http://console.example.com")).toBe(true);
  });

  it("is false without a Host header, or with a Host that is not a host", () => {
    expect(isOurOrigin(new Request("http://x/", { method: "POST" }), "http://x")).toBe(false);
    expect(isOurOrigin(post({ host: "evil.com/path" }), "http://evil.com")).toBe(false);
    expect(isOurOrigin(post({ host: "a@evil.com" }), "http://evil.com")).toBe(false);
  });

  it("ignores X-Forwarded-Host unless TRUST_PROXY=1", () => {
    const request = post({
      host: "10.0.0.1:3000",
      "x-forwarded-host": "evil.com",
      "x-forwarded-proto": "https",
    });
    expect(isOurOrigin(request, "https://evil.com")).toBe(false);
    stubEnv({ TRUST_PROXY: "1" });
    expect(isOurOrigin(request, "https://evil.com")).toBe(true);
    expect(isOurOrigin(request, "http://evil.com")).toBe(false);
  });
});

describe("crossOriginReason", () => {
  it.each([
    [{ "sec-fetch-site": "cross-site" }, /cross-site/],
    [{ "sec-fetch-site": "same-site", origin: "http://127.0.0.1:3150" }, /same-site/],
    [{ origin: "null" }, /Origin "null"/],
    [{ referer: "not a url" }, /Referer is not a URL/],
    [{ referer: "http://evil.com/x" }, /Referer "http:\/\/evil.com"/],
  ])("refuses %j", (headers, reason) => {
    expect(crossOriginReason(post({ host: "127.0.0.1:3150", ...headers }))).toMatch(reason);
  });

  it.each([
    [{}],
    [{ "sec-fetch-site": "same-origin" }],
    [{ "sec-fetch-site": "none" }],
    [{ origin: "http://127.0.0.1:3150", "sec-fetch-site": "same-origin" }],
  ])("accepts %j", (headers) => {
    expect(crossOriginReason(post({ host: "127.0.0.1:3150", ...headers }))).toBeNull();
  });

  it("bounds what it repeats of a hostile Origin", () => {
    const reason = crossOriginReason(post({ host: "a", origin: `http://${"x".repeat(5000)}.com` }))!;
    expect(reason.length).toBeLessThan(200);
  });
});

describe("isLoopbackHost", () => {
  it.each([
    ["127.0.0.1:3000", true],
    ["127.1.2.3", true],
    ["localhost:3000", true],
    ["app.localhost", true],
    ["[::1]:3000", true],
    ["127.0.0.1.evil.com", false],
    ["192.168.1.10:3000", false],
    ["console.example.com", false],
    ["", false],
  ])("%s → %s", (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});
