import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, newNonce } from "@/lib/server/http/csp";

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
