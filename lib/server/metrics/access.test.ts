/**
 * Who may read /metrics: the bearer METRICS_TOKEN when it is set; else callers on this machine
 * only, known by the connection's address (a real node:http server, as `next start` runs it) and
 * not through a proxy. Never the session cookie: a signed-in browser is refused, and stays signed in.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { noteArrivals } from "@/lib/server/http/arrival";
import { isLocalCaller } from "@/lib/server/http/local-caller";
import { metricsRoute } from "@/lib/server/metrics/route";
import type { RouteHandler } from "@/lib/server/http/route";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { signedInCookie } from "@/tests/support/route-requests";
import { watchDatabases } from "@/tests/support/watch-databases";

const databases = watchDatabases();
const TOKEN = "a-metrics-token-0123456789abcdef";
let GET: RouteHandler;

beforeAll(async () => {
  const ctx = await databases.fresh("sqlite");
  GET = metricsRoute({ store: async () => ctx, budgets: async () => [] });
});
afterEach(() => restoreEnv());

async function errorMessage(response: Response): Promise<string> {
  return ((await response.json()) as { error: { message: string } }).error.message;
}

describe("with METRICS_TOKEN", () => {
  it.each([
    ["Bearer <token>", `Bearer ${TOKEN}`],
    ["bearer <token> (the scheme in any case)", `bearer ${TOKEN}`],
  ])("answers %s", async (_name, authorization) => {
    stubEnv({ METRICS_TOKEN: TOKEN });
    const response = await GET(new Request("http://console.test/metrics", { headers: { authorization } }));
    expect(response.status).toBe(200);
  });

  it.each([
    ["no Authorization", {}, /send the console's METRICS_TOKEN as 'Authorization: Bearer/],
    ["another scheme", { authorization: `Basic ${btoa(`x:${TOKEN}`)}` }, /send the console's METRICS_TOKEN/],
    ["a wrong token", { authorization: `Bearer ${TOKEN}x` }, /not this console's METRICS_TOKEN/],
    [
      "the token's start",
      { authorization: `Bearer ${TOKEN.slice(0, 10)}` },
      /not this console's METRICS_TOKEN/,
    ],
    ["a loopback caller without it", { "x-forwarded-for": "127.0.0.1" }, /send the console's METRICS_TOKEN/],
  ])("refuses %s with 403, saying what to send", async (_name, headers, message) => {
    stubEnv({ METRICS_TOKEN: TOKEN });
    const response = await GET(new Request("http://console.test/metrics", { headers }));
    expect(response.status).toBe(403);
    const text = await errorMessage(response);
    expect(text).toMatch(message);
    expect(text).not.toContain(TOKEN);
  });

  it("refuses a signed-in browser's session cookie, and leaves its session alone", async () => {
    stubEnv({ METRICS_TOKEN: TOKEN, SESSION_SECRET: "unit-test-session-secret-0123456789abcdef" });
    const cookie = await signedInCookie("a-key-of-someone-signed-in-0123");
    const response = await GET(new Request("http://console.test/metrics", { headers: { cookie } }));
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
  });
});

describe("without METRICS_TOKEN: callers on this machine only", () => {
  it.each([
    ["127.0.0.1", {}, true],
    ["::1", {}, true],
    ["::ffff:127.0.0.1", { "x-forwarded-for": "::ffff:127.0.0.1" }, true],
    ["10.0.0.5", {}, false],
    ["192.168.1.20", { "x-forwarded-for": "127.0.0.1" }, false],
    [undefined, {}, false],
    ["127.0.0.1", { "x-forwarded-for": "203.0.113.9" }, false],
    ["127.0.0.1", { "x-forwarded-for": "127.0.0.1, 203.0.113.9" }, false],
    ["127.0.0.1", { "x-forwarded-for": "203.0.113.9, 127.0.0.1" }, false],
    ["127.0.0.1", { forwarded: "for=203.0.113.9" }, false],
    ["127.0.0.1", { "x-real-ip": "203.0.113.9" }, false],
  ])("a connection from %s with %j: %s", (peer, headers, local) => {
    expect(isLocalCaller(new Request("http://console.test/metrics", { headers }), peer)).toBe(local);
  });

  describe("through a real HTTP server", () => {
    let server: http.Server;
    let base: string;
    beforeAll(async () => {
      noteArrivals();
      server = http.createServer((req, res) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers))
          if (typeof value === "string") headers.set(name, value);
        void GET(new Request(`${base}${req.url}`, { headers })).then(async (response) => {
          res.writeHead(response.status, Object.fromEntries(response.headers));
          res.end(Buffer.from(await response.arrayBuffer()));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("answers a call from this machine, and refuses one a local proxy passes on from outside", async () => {
      stubEnv({ METRICS_TOKEN: "" });
      const direct = await fetch(`${base}/metrics`);
      expect(direct.status).toBe(200);
      expect(await direct.text()).toContain("hubconsole_watcher_watched_webhooks 0");
      const proxied = await fetch(`${base}/metrics`, { headers: { "x-forwarded-for": "203.0.113.9" } });
      expect(proxied.status).toBe(403);
      expect(await errorMessage(proxied)).toMatch(/Set METRICS_TOKEN on the console/);
    });

    it("without a connection to read (the handler called directly) refuses", async () => {
      stubEnv({ METRICS_TOKEN: "" });
      const response = await GET(
        new Request("http://127.0.0.1/metrics", { headers: { "x-forwarded-for": "127.0.0.1" } }),
      );
      expect(response.status).toBe(403);
    });
  });
});
