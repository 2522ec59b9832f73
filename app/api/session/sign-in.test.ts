/**
 * `POST /api/session` against a fake hub that knows one key: the key is checked with the hub
 * before anything is stored, and the sign-in limit counts only attempts that could succeed.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { stubEnv } from "@/tests/support/env";
import { sendJson } from "@/tests/support/fake-upstream";
import { CONSOLE_HOST as HOST, CONSOLE_ORIGIN as ORIGIN, oneKeyHub } from "@/tests/support/one-key-hub";
import * as sessionRoute from "@/app/api/session/route";

const KEY = "known-key-7f3a9c2e5b1d4e6f8a0b";
const UNKNOWN = "unknown-key-0a1b2c3d4e5f60718293";

const hub = oneKeyHub(KEY);

interface Attempt {
  apiKey?: unknown;
  body?: string;
  from?: string;
  origin?: string;
  contentType?: string;
  cookie?: string;
}

function signIn({
  apiKey = KEY,
  body,
  from = "203.0.113.7",
  origin = ORIGIN,
  contentType,
  cookie,
}: Attempt = {}) {
  const headers = new Headers({
    host: HOST,
    origin,
    "content-type": contentType ?? "application/json",
    "x-forwarded-for": from,
  });
  if (cookie) headers.set("cookie", cookie);
  return sessionRoute.POST(
    new Request(`${ORIGIN}/api/session`, {
      method: "POST",
      headers,
      body: body ?? JSON.stringify({ apiKey }),
    }),
  );
}

async function errorOf(response: Response) {
  return (
    (await response.json()) as { error: { code: string; message: string; fields?: Record<string, string[]> } }
  ).error;
}

describe("sign-in asks the hub about the key", () => {
  it("a key the hub rejects is refused on the API key field with the hub's reason, and nothing is stored", async () => {
    const response = await signIn({ apiKey: UNKNOWN });
    expect(response.status).toBe(400);
    expect(response.headers.get("set-cookie")).toBeNull();
    const error = await errorOf(response);
    expect(error.code).toBe("bad_request");
    // Named by the field's label, and what to do, as the field's other errors are.
    expect(error.message).toMatch(
      /^API key: the Messaging Hub rejected this key \(HTTP 401\).*Paste the application's current key\./,
    );
    expect(error.fields?.apiKey).toEqual([error.message]);
    expect(JSON.stringify(error)).not.toContain(UNKNOWN);
    expect(hub.upstream.requests.map((r) => r.headers["x-api-key"])).toEqual([UNKNOWN]);
  });

  it("a key the hub accepts signs in", async () => {
    const response = await signIn();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ signedIn: true, keyHint: KEY.slice(-4), handOver: [] });
    expect(response.headers.get("set-cookie")).toMatch(/^hub_console=Fe26\.2\*/);
    expect(hub.upstream.requests).toHaveLength(1);
  });

  it("a hub that fails or cannot answer stores nothing either, and says so", async () => {
    hub.upstream.handle = (_req, res) => sendJson(res, 503, {});
    const response = await signIn();
    expect(response.status).toBe(502);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("a refused key leaves the session already signed in as it was (no cookie change)", async () => {
    const cookie = (await signIn()).headers.get("set-cookie")!.split(";")[0]!;
    const refused = await signIn({ apiKey: UNKNOWN, cookie });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("set-cookie")).toBeNull();
    const who = await sessionRoute.GET(
      new Request(`${ORIGIN}/api/session`, { headers: { host: HOST, cookie } }),
    );
    expect(await who.json()).toEqual({ signedIn: true, keyHint: KEY.slice(-4) });
  });
});

describe("the sign-in limit counts only attempts that could succeed", () => {
  beforeEach(() => stubEnv({ SIGN_IN_RATE_LIMIT_PER_MINUTE: "2" }));

  it("cross-site and malformed attempts cost the client no try, and reach no hub", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await signIn({ origin: "http://evil.example" })).status).toBe(403);
      expect((await signIn({ apiKey: "" })).status).toBe(400);
      expect((await signIn({ apiKey: "short" })).status).toBe(400);
      expect((await signIn({ body: "{" })).status).toBe(400);
      expect((await signIn({ contentType: "text/plain" })).status).toBe(415);
    }
    expect(hub.upstream.requests).toHaveLength(0);
    expect((await signIn()).status).toBe(200);
  });

  it("well-formed attempts count, refused by the hub or not: 429 past the limit, per client", async () => {
    expect((await signIn({ apiKey: UNKNOWN })).status).toBe(400);
    expect((await signIn()).status).toBe(200);
    const limited = await signIn();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await errorOf(limited)).code).toBe("rate_limited");
    expect(hub.upstream.requests).toHaveLength(2);
    expect((await signIn({ from: "203.0.113.8" })).status).toBe(200);
  });

  it("a flood from many addresses cannot use up sign-in for anyone else (no cap over all clients)", async () => {
    // Each address uses up its own tries (50 attempts in all, 25 × the limit); another keeps all of its.
    for (let i = 0; i < 25; i++) {
      const from = `198.51.100.${i}`;
      await signIn({ apiKey: UNKNOWN, from });
      await signIn({ apiKey: UNKNOWN, from });
    }
    expect((await signIn({ from: "192.0.2.1" })).status).toBe(200);
  });
});
