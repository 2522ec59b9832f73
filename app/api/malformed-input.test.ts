/**
 * Malformed percent-encodings (`%`, `%ZZ`, a cut UTF-8 sequence, a lone surrogate, a pasted
 * console link holding one) in every query parameter, path param and Find link of every route
 * handler of the console's API: a 400 that names the field, or the route's usual answer, never
 * a 500. (A malformed path never reaches a handler on a server: proxy.ts answers it first, see
 * tests/e2e/malformed-input.spec.ts.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeHubForRoutes, request, signedInCookie } from "@/tests/support/route-requests";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { fakeLogPage, fakeWebhook, sendJson } from "@/tests/support/fake-upstream";
import type { RouteHandler } from "@/lib/server/http/route";
import * as findRoute from "@/app/api/webhooks/[webhookId]/history/find/route";

const KEY = "malformed-key-0123456789abcdef";
const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
const LOG = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";

/** Malformed as they arrive in a query string (each is one parameter's raw value). */
const MALFORMED = [
  "%",
  "%ZZ",
  "%E0%A4%A",
  "%ED%A0%80",
  "ok%",
  // Console links whose path holds a malformed encoding, as Find receives them once decoded.
  encodeURIComponent(`/webhooks/%E0%A4%A?log=${LOG}`),
  encodeURIComponent(`http://console.test/webhooks/%?log=${LOG}`),
  encodeURIComponent(`/webhooks/%ED%A0%80?log=${LOG}`),
];
/** Decoded the way Next hands a path param over when its encoding is broken. */
const MALFORMED_PARAMS = ["%", "%ZZ", "%E0%A4%A", "\uD800", "a\uDC00b"];

/** Every query parameter any route or page of the console reads. */
const PARAMETERS = [
  "q",
  "find",
  "log",
  "limit",
  "offset",
  "status",
  "since",
  "until",
  "code",
  "contains",
  "reason",
  "window",
  "cap",
  "format",
  "app",
  "page",
];

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Every route module under app/api, by its folder (e.g. `./webhooks/[webhookId]/logs`). */
const routeModules = import.meta.glob<Record<string, unknown>>("./**/route.ts");

const fake = fakeHubForRoutes();

beforeEach(() => {
  // The request log's lines (one per call) are not what this file tests.
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
});
afterEach(() => vi.restoreAllMocks());

/** The route's params, each set to `value`, from its folder's `[name]` segments. */
function paramsOf(folder: string, value: (name: string) => string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [, spread, name] of folder.matchAll(/\[(\.\.\.)?(\w+)\]/g))
    params[name!] = spread ? [value(name!)] : value(name!);
  return params;
}

/** The API path of a route folder with its params filled in. */
function pathOf(folder: string, params: Record<string, string | string[]>): string {
  return `/api${folder.slice(1)}`.replace(/\[(?:\.\.\.)?(\w+)\]/g, (_, name: string) =>
    encodeURIComponent(String(params[name])),
  );
}

interface Answer {
  status: number;
  code?: string;
  message?: string;
  fields?: Record<string, string[]>;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let error: Omit<Answer, "status"> | undefined;
  try {
    error = (JSON.parse(text) as { error?: Omit<Answer, "status"> }).error;
  } catch {
    error = undefined;
  }
  return { status: response.status, ...error };
}

async function call(
  handler: RouteHandler,
  method: string,
  path: string,
  params: Record<string, unknown>,
  cookie: string,
): Promise<Answer> {
  return answerOf(await handler(request(method, path, { cookie }), { params: Promise.resolve(params) }));
}

describe("malformed percent-encodings reach no route as a 500", () => {
  it("finds every route module", () => {
    expect(Object.keys(routeModules).length).toBeGreaterThanOrEqual(20);
  });

  it.each(Object.keys(routeModules))("%s: any query parameter, any path param", async (file) => {
    fake.handle = (req, res) =>
      sendJson(res, 200, req.url?.includes("/webhook-log") ? fakeLogPage() : fakeWebhook());
    const cookie = await signedInCookie(KEY);
    const folder = file.replace(/\/route\.ts$/, "");
    const exports = await routeModules[file]!();
    const good = paramsOf(folder, (name) =>
      name === "logId" ? LOG : name === "channelKind" ? "sms" : WEBHOOK,
    );
    for (const method of METHODS) {
      const handler = exports[method] as RouteHandler | undefined;
      if (!handler) continue;
      for (const value of MALFORMED) {
        for (const parameter of PARAMETERS) {
          signInLimiter.reset();
          const answer = await call(
            handler,
            method,
            `${pathOf(folder, good)}?${parameter}=${value}`,
            good,
            cookie,
          );
          expect(answer.status, `${method} ${folder} ?${parameter}=${value}: ${answer.message}`).not.toBe(
            500,
          );
          expect(answer.code).not.toBe("internal");
        }
      }
      for (const value of MALFORMED_PARAMS) {
        const params = paramsOf(folder, () => value);
        if (Object.keys(params).length === 0) continue;
        const answer = await call(handler, method, `/api${folder.slice(1)}`, params, cookie);
        expect(answer.status, `${method} ${folder} params ${JSON.stringify(params)}`).toBeLessThan(500);
      }
    }
  });

  it("a Find link whose path is malformed is a 400 naming q, and nothing is asked of the hub", async () => {
    const cookie = await signedInCookie(KEY);
    fake.requests.length = 0;
    for (const link of [`/webhooks/%E0%A4%A?log=${LOG}`, `http://console.test/webhooks/%?log=${LOG}`]) {
      const answer = await call(
        findRoute.GET,
        "GET",
        `/api/webhooks/${WEBHOOK}/history/find?q=${encodeURIComponent(link)}`,
        { webhookId: WEBHOOK },
        cookie,
      );
      expect(answer.status, answer.message).toBe(400);
      expect(answer.fields?.q?.[0]).toMatch(/webhook ID/);
    }
    expect(fake.requests).toHaveLength(0);
  });
});
