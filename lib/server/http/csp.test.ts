import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { contentSecurityPolicy, newNonce } from "@/lib/server/http/csp";
import { config, proxy } from "@/proxy";

function directives(csp: string): Map<string, string> {
  return new Map(csp.split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1).join(" ")]));
}

describe("contentSecurityPolicy", () => {
  it("production: scripts only with the nonce, no unsafe-inline/eval, framing refused", () => {
    const csp = directives(contentSecurityPolicy({ nonce: "abc123==", dev: false, https: false }));
    expect(csp.get("script-src")).toBe("'self' 'nonce-abc123==' 'strict-dynamic'");
    expect(csp.get("style-src")).toBe("'self' 'nonce-abc123=='");
    expect(csp.get("frame-ancestors")).toBe("'none'");
    expect(csp.get("object-src")).toBe("'none'");
    expect(csp.get("base-uri")).toBe("'self'");
    expect(csp.get("form-action")).toBe("'self'");
    expect([...csp.values()].join(" ")).not.toMatch(/unsafe-eval/);
    expect(csp.get("script-src")).not.toMatch(/unsafe-inline/);
    expect(csp.has("upgrade-insecure-requests")).toBe(false);
  });

  it("development adds unsafe-eval for scripts (Next needs it), https adds upgrade-insecure-requests", () => {
    const dev = directives(contentSecurityPolicy({ nonce: "n", dev: true, https: false }));
    expect(dev.get("script-src")).toContain("'unsafe-eval'");
    expect(dev.get("script-src")).not.toContain("'unsafe-inline'");
    expect(
      directives(contentSecurityPolicy({ nonce: "n", dev: false, https: true })).has(
        "upgrade-insecure-requests",
      ),
    ).toBe(true);
  });

  it("nonces are 128 random bits, different every time", () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});

describe("proxy.ts: the CSP and the page address on every page request", () => {
  const PAGES = ["/", "/login", "/webhooks", "/webhooks/abc?app=1", "/no-such-page", "/favicon.ico", "/api"];
  const PAGES_NAMED_LIKE_METRICS = ["/metrics/", "/metrics/x", "/metricsx"];
  const OTHERS = [
    "/api/session",
    "/api/webhooks/x/logs",
    "/metrics",
    "/_next/static/chunks/a.js",
    "/_next/image",
  ];
  const MARKS: Array<Record<string, string>> = [
    {},
    { purpose: "prefetch" },
    { "sec-purpose": "prefetch" },
    { "next-router-prefetch": "1", rsc: "1" },
  ];
  const forged = { "x-console-page": "/webhooks/forged?looked=none" };
  const runs = (url: string, headers: Record<string, string>) =>
    unstable_doesMiddlewareMatch({ config, url, headers });

  it("runs for every page path, prefetch or not; for other paths only when they carry the internal header", () => {
    for (const path of [...PAGES, ...PAGES_NAMED_LIKE_METRICS])
      for (const headers of MARKS)
        expect(runs(path, headers), `${path} ${JSON.stringify(headers)}`).toBe(true);
    for (const path of OTHERS) {
      for (const headers of MARKS) expect(runs(path, headers), path).toBe(false);
      expect(runs(path, forged), path).toBe(true);
    }
  });

  /** The request headers proxy.ts hands on to the render (Next's x-middleware-request-* encoding). */
  function handedOn(response: Response): Headers {
    const names = response.headers.get("x-middleware-override-headers")?.split(",") ?? [];
    return new Headers(
      names.map((name): [string, string] => [
        name,
        response.headers.get(`x-middleware-request-${name}`) ?? "",
      ]),
    );
  }

  it("pages: a fresh nonce in the answer's CSP and the render's, and the page's own address, never the browser's", () => {
    for (const headers of MARKS) {
      const response = proxy(
        new NextRequest("http://console.test/webhooks/abc?app=1", { headers: { ...headers, ...forged } }),
      );
      const csp = response.headers.get("content-security-policy")!;
      expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'/);
      expect(handedOn(response).get("content-security-policy")).toBe(csp);
      expect(handedOn(response).get("x-console-page")).toBe("/webhooks/abc?app=1");
    }
  });

  it("other paths: the browser's page address is removed", () => {
    for (const path of OTHERS) {
      const response = proxy(new NextRequest(`http://console.test${path}`, { headers: forged }));
      expect(handedOn(response).has("x-console-page"), path).toBe(false);
      expect(response.headers.get("content-security-policy"), path).toBeNull();
    }
  });
});
