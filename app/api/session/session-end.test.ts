/**
 * Every way a session ends revokes it, so a copy of its cookie stops working everywhere: Sign out
 * (`DELETE /api/session`), `GET /api/session/end` (where pages send a session that is over, and
 * the Sign out button's fallback), the hub rejecting the key of a single-application session, and
 * signing in again over it.
 * Also: a request reads its session once, straight from the cookie (no cache of cookie text).
 */
import { describe, expect, it, vi } from "vitest";
import { unsealData } from "iron-session";
import {
  CONSOLE_HOST as HOST,
  CONSOLE_ORIGIN as ORIGIN,
  WEBHOOK,
  oneKeyHub,
} from "@/tests/support/one-key-hub";
import { openSeal } from "@/lib/server/session/session";
import * as sessionRoute from "@/app/api/session/route";
import * as endRoute from "@/app/api/session/end/route";
import * as webhookRoute from "@/app/api/webhooks/[webhookId]/route";

vi.mock("iron-session", async (importOriginal) => {
  const actual = await importOriginal<typeof import("iron-session")>();
  return { ...actual, unsealData: vi.fn(actual.unsealData) };
});

const KEY = "ending-key-7f3a9c2e5b1d4e6f8a0b";

const hub = oneKeyHub(KEY);

function request(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  return new Request(`${ORIGIN}${path}`, {
    method,
    headers: {
      host: HOST,
      origin: ORIGIN,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function signIn(): Promise<string> {
  const response = await sessionRoute.POST(request("POST", "/api/session", {}, { apiKey: KEY }));
  expect(response.status).toBe(200);
  return response.headers.get("set-cookie")!.split(";")[0]!;
}

async function signedIn(cookie: string): Promise<boolean> {
  const response = await sessionRoute.GET(request("GET", "/api/session", { cookie }));
  return ((await response.json()) as { signedIn: boolean }).signedIn;
}

const clearsCookie = (response: Response) =>
  /^hub_console=;.*Max-Age=0/.test(response.headers.get("set-cookie") ?? "");

const ways: Array<[string, (cookie: string) => Promise<Response>]> = [
  [
    "Sign out (DELETE /api/session)",
    (cookie) => sessionRoute.DELETE(request("DELETE", "/api/session", { cookie })),
  ],
  [
    "GET /api/session/end (a page's session is over; the Sign out button's fallback)",
    (cookie) =>
      endRoute.GET(
        request("GET", "/api/session/end?reason=key_rejected", {
          cookie,
          "sec-fetch-site": "same-origin",
          "sec-fetch-mode": "navigate",
          "sec-fetch-dest": "document",
        }),
      ),
  ],
  [
    "the hub rejecting the key of a single-application session (401)",
    async (cookie) => {
      hub.accepting = false;
      const response = await webhookRoute.GET(request("GET", `/api/webhooks/${WEBHOOK}`, { cookie }), {
        params: Promise.resolve({ webhookId: WEBHOOK }),
      });
      expect(response.status).toBe(401);
      hub.accepting = true;
      return response;
    },
  ],
];

describe("every way a session ends revokes it", () => {
  it.each(ways)("%s: the cookie is cleared, and a copy of it no longer opens", async (_way, end) => {
    const cookie = await signIn();
    const copy = cookie;
    expect(await signedIn(copy)).toBe(true);
    const response = await end(cookie);
    expect(clearsCookie(response)).toBe(true);
    expect(await signedIn(copy)).toBe(false);
    // The hub accepts the key again, but the copied session stays over: 401 without asking the hub.
    const before = hub.upstream.requests.length;
    const read = await webhookRoute.GET(request("GET", `/api/webhooks/${WEBHOOK}`, { cookie: copy }), {
      params: Promise.resolve({ webhookId: WEBHOOK }),
    });
    expect(read.status).toBe(401);
    expect(hub.upstream.requests.length).toBe(before);
  });

  it("another session of the same key is not touched", async () => {
    const ended = await signIn();
    const other = await signIn();
    await endRoute.GET(request("GET", "/api/session/end", { cookie: ended }));
    expect(await signedIn(ended)).toBe(false);
    expect(await signedIn(other)).toBe(true);
  });
});

describe("signing in again", () => {
  it("revokes the session it replaces: a copy of the old cookie no longer opens", async () => {
    const old = await signIn();
    const copy = old;
    const response = await sessionRoute.POST(
      request("POST", "/api/session", { cookie: old }, { apiKey: KEY }),
    );
    expect(response.status).toBe(200);
    const fresh = response.headers.get("set-cookie")!.split(";")[0]!;
    expect(fresh).not.toBe(copy);
    expect(await signedIn(copy)).toBe(false);
    expect(await signedIn(fresh)).toBe(true);
  });
});

describe("reading the session", () => {
  const unseals = vi.mocked(unsealData);

  it("opens the cookie with iron-session each time it is read: nothing maps cookie text to session data", async () => {
    const cookie = await signIn();
    const seal = cookie.slice(cookie.indexOf("=") + 1);
    unseals.mockClear();
    expect((await openSeal(seal)).status).toBe("signed_in");
    expect((await openSeal(seal)).status).toBe("signed_in");
    expect(unseals).toHaveBeenCalledTimes(2);
  });

  it("a route request reads its session once, however many times its handler asks", async () => {
    const cookie = await signIn();
    unseals.mockClear();
    const response = await webhookRoute.GET(request("GET", `/api/webhooks/${WEBHOOK}`, { cookie }), {
      params: Promise.resolve({ webhookId: WEBHOOK }),
    });
    expect(response.status).toBe(200);
    expect(unseals).toHaveBeenCalledTimes(1);
    unseals.mockClear();
    hub.accepting = false;
    // A 401 reads the session to end it too: still once.
    await webhookRoute.GET(request("GET", `/api/webhooks/${WEBHOOK}`, { cookie }), {
      params: Promise.resolve({ webhookId: WEBHOOK }),
    });
    expect(unseals).toHaveBeenCalledTimes(1);
  });
});
