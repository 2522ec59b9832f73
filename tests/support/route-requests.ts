/**
 * TEST ONLY. What the route handler tests share: a fake hub per test file, requests built as a
 * browser on the console's own origin would send them, signing in through the real route, and
 * reading the console's error shape.
 */
import { beforeEach, expect } from "vitest";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { fakeWebhook, sendJson, type FakeUpstream } from "@/tests/support/fake-upstream";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { signedInCookie } from "@/tests/support/signed-in";

export const HOST = "console.test:3000";
export const ORIGIN = `http://${HOST}`;
export const KEY = "canary-key-7f3a9c2e5b1d4e6f8a0b";
export const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
export const LOG = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
export const CHANNEL = "3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b";

/**
 * One fake hub for the test file, answering the webhook by default; the sign-in limit starts
 * afresh for each test. Call at the top of a test file; the hub it returns stands for the one
 * started for the file, so tests can script it (`handle`) and read what reached it (`requests`).
 */
export function fakeHubForRoutes(): FakeUpstream {
  const fake = fakeUpstreamPerTest({
    SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
    HUB_TIMEOUT_MS: "800",
    HUB_SANDBOX: "",
  });
  beforeEach(() => {
    signInLimiter.reset();
    fake.current.handle = (_req, res) => sendJson(res, 200, fakeWebhook());
  });
  return {
    get url() {
      return fake.current.url;
    },
    get requests() {
      return fake.current.requests;
    },
    get handle() {
      return fake.current.handle;
    },
    set handle(handle) {
      fake.current.handle = handle;
    },
    nextRequest: () => fake.current.nextRequest(),
    close: () => fake.current.close(),
  };
}

export interface Init {
  body?: unknown;
  raw?: BodyInit;
  headers?: Record<string, string>;
  cookie?: string;
  signal?: AbortSignal;
}

export function request(method: string, path: string, init: Init = {}): Request {
  const headers = new Headers({ host: HOST, ...init.headers });
  if (init.cookie) headers.set("cookie", init.cookie);
  let body: BodyInit | undefined = init.raw;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return new Request(`${ORIGIN}${path}`, { method, headers, body, signal: init.signal });
}

/** The second argument Next passes a dynamic route's handler. */
export const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) });

/** The Cookie header a browser signed in with `key` sends back (the sign-in itself: app/api/session/). */
export async function signIn(key = KEY): Promise<string> {
  return signedInCookie(key);
}

export function clearsCookie(response: Response): boolean {
  const setCookie = response.headers.get("set-cookie") ?? "";
  return /^hub_console=;/.test(setCookie) && /Max-Age=0/.test(setCookie);
}

/** The answer's `error`, checking that it is the only key of the body. */
export async function errorOf(response: Response) {
  const body = (await response.json()) as {
    error: { code: string; message: string; fields?: Record<string, string[]> };
  };
  expect(Object.keys(body)).toEqual(["error"]);
  return body.error;
}
