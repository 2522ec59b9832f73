/**
 * TEST ONLY (vitest). What the route handler tests share: a fake hub per test file, requests
 * built as a browser on the console's own origin sends them, a signed-in session cookie, and
 * reading the console's error shape.
 */
import { beforeEach, expect } from "vitest";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { forgetSharedReadsForTests } from "@/lib/server/hub/shared-reads";
import { addApplication } from "@/lib/server/session/applications";
import { sealedCookie, sessionCookie } from "@/lib/server/session/session";
import { fakeWebhook, sendJson, type FakeUpstream } from "@/tests/support/fake-upstream";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";

export const HOST = "console.test:3000";
export const ORIGIN = `http://${HOST}`;
export const KEY = "canary-key-7f3a9c2e5b1d4e6f8a0b";
export const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
export const LOG = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
export const CHANNEL = "3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b";

/**
 * One fake hub for the test file, answering with `handler` (by default the webhook); the sign-in
 * limit and the shared reads start afresh for each test. Call at the top of a test file; the hub
 * it returns stands for the one started for the file, so tests can script it (`handle`) and read
 * what reached it (`requests`).
 */
export function fakeHubForRoutes(
  handler: FakeUpstream["handle"] = (_req, res) => sendJson(res, 200, fakeWebhook()),
): FakeUpstream {
  const fake = fakeUpstreamPerTest({
    SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
    HUB_TIMEOUT_MS: "800",
    HUB_SANDBOX: "",
  });
  beforeEach(() => {
    signInLimiter.reset();
    forgetSharedReadsForTests();
    fake.current.handle = handler;
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
  /** A JSON body. */
  body?: unknown;
  /** A form body (application/x-www-form-urlencoded). */
  form?: string | Record<string, string>;
  /** A body sent as it is. */
  raw?: BodyInit;
  /** Headers to add or override (`origin`, `referer`, `sec-fetch-*` to test the same-origin check). */
  headers?: Record<string, string>;
  cookie?: string;
  signal?: AbortSignal;
}

/**
 * A request to the console's API on its own host. Without an Origin header it passes the
 * same-origin check as a same-origin browser's request does.
 */
export function request(method: string, path: string, init: Init = {}): Request {
  const headers = new Headers({ host: HOST, ...init.headers });
  if (init.cookie) headers.set("cookie", init.cookie);
  let body: BodyInit | undefined = init.raw;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  } else if (init.form !== undefined) {
    body = new URLSearchParams(init.form).toString();
    headers.set("content-type", "application/x-www-form-urlencoded");
  }
  return new Request(`${ORIGIN}${path}`, { method, headers, body, signal: init.signal });
}

/** The second argument Next passes a dynamic route's handler. */
export const ctx = (params: Record<string, string | string[]>) => ({ params: Promise.resolve(params) });

/**
 * The Cookie header of a browser signed in with `apiKey`, sealed exactly as sign-in seals it but
 * without asking a hub: for route tests about other things than signing in, so the key check is
 * not among the upstream calls they count or script (the sign-in itself: app/api/session/).
 */
export async function signedInCookie(apiKey = KEY): Promise<string> {
  return (await sessionCookie(apiKey)).setCookie.split(";")[0]!;
}

/** The Cookie header of a session holding `first` (current, named "Default") and `second`, named "Staging". */
export async function twoApplicationsCookie(first: string, second: string): Promise<string> {
  const { data } = await sessionCookie(first);
  return (await sealedCookie(addApplication(data, { name: "Staging", apiKey: second }))).split(";")[0]!;
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
