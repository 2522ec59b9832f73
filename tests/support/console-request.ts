/**
 * TEST ONLY (vitest). Requests to the console's route handlers as a same-origin browser sends
 * them, a signed-in cookie from the real sign-in route, and the error body of an answer.
 */
import { beforeEach, expect } from "vitest";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import type { FakeUpstream } from "@/tests/support/fake-upstream";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { forgetSharedReadsForTests } from "@/lib/server/hub/shared-reads";
import * as sessionRoute from "@/app/api/session/route";

export const ORIGIN = "http://console.test:3000";

/**
 * A fake hub for a file of route tests, with the console configured for it; before each test
 * the sign-in limit and the shared reads start empty, and `handle` is set to `handler`.
 */
export function routesAgainstFakeHub(handler: FakeUpstream["handle"]): { readonly current: FakeUpstream } {
  const fake = fakeUpstreamPerTest({
    SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
    HUB_SANDBOX: "",
  });
  beforeEach(() => {
    signInLimiter.reset();
    forgetSharedReadsForTests();
    fake.current.handle = handler;
  });
  return fake;
}

export interface RequestInit {
  body?: unknown;
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  cookie?: string;
}

export function consoleRequest(method: string, path: string, init: RequestInit = {}): Request {
  const headers = new Headers({ host: new URL(ORIGIN).host, origin: ORIGIN });
  if (init.cookie) headers.set("cookie", init.cookie);
  let body: string | undefined;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers.set("content-type", "application/json");
  } else if (init.form) {
    body = new URLSearchParams(init.form).toString();
    headers.set("content-type", "application/x-www-form-urlencoded");
  }
  return new Request(`${ORIGIN}${path}`, { method, headers, body });
}

/** The second argument Next gives a route handler. */
export const routeParams = (params: Record<string, string>) => ({ params: Promise.resolve(params) });

/** Signs in through the real route; the Cookie header a browser would send back. */
export async function signedInCookie(apiKey: string): Promise<string> {
  const response = await sessionRoute.POST(consoleRequest("POST", "/api/session", { body: { apiKey } }));
  expect(response.status).toBe(200);
  return response.headers.get("set-cookie")!.split(";")[0]!;
}

export async function errorOf(response: Response) {
  const body = (await response.json()) as {
    error: { code: string; message: string; fields?: Record<string, string[]> };
  };
  return body.error;
}
