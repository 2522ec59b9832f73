/**
 * The support-bundle route, called directly with `new Request(...)` against a fake hub that
 * serves a webhook and its logs: each format, redaction (default rules, REDACT_PATTERNS, the
 * session's own key), the 400s that send nothing, and a session-less call.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { sendJson } from "@/tests/support/fake-upstream";
import {
  KEY,
  WEBHOOK,
  ctx,
  errorOf,
  fakeHubForRoutes,
  request,
  signedInCookie,
} from "@/tests/support/route-requests";
import { stubEnv } from "@/tests/support/env";
import { resetHistoryForTests } from "@/lib/server/history/scan";
import { validateServerConfig } from "@/lib/server/config";
import * as bundleRoute from "@/app/api/webhooks/[webhookId]/bundle/route";

const hub = fakeHubForRoutes();
const NOW = Date.now();
const MIN = 60_000;
const id = (n: number, p = "1") => `${p.repeat(8)}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

/** Newest first: 30 failures a minute apart (a 500 whose body leaks secrets), then successes. */
const LOGS = Array.from({ length: 120 }, (_, i) => {
  const at = new Date(NOW - (i + 1) * MIN).toISOString();
  const failed = i < 30;
  return {
    id: id(i),
    webhookId: WEBHOOK,
    statusCode: failed ? 500 : 200,
    responseBody: failed
      ? `{"error":"database connection lost","order":"ORD-123456","dsn":"postgres://app:pw0rd@db/x","echo":"${KEY}","mail":"ops@customer.test"}`
      : '{"ok":true}',
    status: failed ? "Failed" : "Success",
    sendAt: at,
    createdDate: at,
    messageId: id(i, "2"),
    webhook: { id: WEBHOOK, endpoint: "https://customer.test/hook", eventType: "Message" },
  };
});

beforeEach(() => {
  resetHistoryForTests();
  hub.handle = (req, res) => {
    const url = new URL(req.url ?? "", "http://hub");
    if (!url.pathname.endsWith("/webhook-log")) {
      sendJson(res, 200, {
        id: WEBHOOK,
        endpoint: "https://customer.test/hook?token=t0ps3cret",
        eventType: "Message",
        numberOfErrors: 30,
        active: true,
      });
      return;
    }
    const offset = Number(url.searchParams.get("offset"));
    const limit = Number(url.searchParams.get("limit"));
    sendJson(res, 200, {
      data: LOGS.slice(offset, offset + limit),
      pagination: { offset, limit, total: LOGS.length, totalPages: Math.ceil(LOGS.length / limit) },
    });
  };
});

const path = (query: string) => `/api/webhooks/${WEBHOOK}/bundle?${query}`;
const from = new Date(NOW - 10 * MIN).toISOString();
const to = new Date(NOW).toISOString();
const windowQuery = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&tz=Europe%2FBerlin`;

async function bundle(format: string, cookie: string): Promise<Response> {
  return bundleRoute.GET(
    request("GET", path(`${windowQuery}&format=${format}`), { cookie }),
    ctx({ webhookId: WEBHOOK }),
  );
}

describe("GET /api/webhooks/{id}/bundle", () => {
  it("json: the window's counts, the streak back to its true start, the comparison and what was masked", async () => {
    const cookie = await signedInCookie();
    const response = await bundle("json", cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="support-bundle-0b7e5a4c-.*\.json"$/,
    );
    const text = await response.text();
    for (const secret of [KEY, "pw0rd", "ops@customer.test", "t0ps3cret"]) expect(text).not.toContain(secret);
    const body = JSON.parse(text);
    expect(body.timeZone).toBe("Europe/Berlin");
    expect(body.counts).toEqual({ attempts: 10, succeeded: 0, failed: 10 });
    // The streak started before the window: all 30 failures, back to the success at minute 31.
    expect(body.streak).toMatchObject({ length: 30, atLeast: false, startedAt: LOGS[29]!.sendAt });
    expect(body.comparison.lastSuccess.id).toBe(LOGS[30]!.id);
    expect(body.comparison.summary).toMatch(/; since then 500 with 'database connection lost'\.$/);
    expect(body.masked).toEqual(
      expect.arrayContaining([
        { kind: "API keys", count: expect.any(Number) },
        { kind: "Email addresses", count: expect.any(Number) },
        { kind: "Secrets in URLs", count: 1 },
        { kind: "URL credentials", count: expect.any(Number) },
      ]),
    );
  });

  it("md and html: the same bundle, laid out", async () => {
    const cookie = await signedInCookie();
    const md = await bundle("md", cookie);
    expect(md.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const mdText = await md.text();
    expect(mdText).toMatch(/^# Support bundle: `https:\/\/customer\.test\/hook\?token=\[redacted\]`/);
    expect(mdText).toContain("## Failing streak");
    const html = await bundle("html", cookie);
    expect(html.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const htmlText = await html.text();
    expect(htmlText).toMatch(/^<!doctype html>/);
    expect(htmlText).not.toContain("<script");
    expect(htmlText).not.toContain(KEY);
  });

  it("masks the operator's REDACT_PATTERNS", async () => {
    stubEnv({ REDACT_PATTERNS: JSON.stringify(["ORD-\\d{6}"]) });
    const cookie = await signedInCookie();
    const body = JSON.parse(await (await bundle("json", cookie)).text());
    expect(JSON.stringify(body)).not.toContain("ORD-123456");
    expect(body.masked).toContainEqual({ kind: "Operator patterns", count: expect.any(Number) });
  });

  it("a REDACT_PATTERNS entry that does not compile stops the console at start, naming it", () => {
    stubEnv({ REDACT_PATTERNS: JSON.stringify(["ok", "(unclosed"]) });
    expect(() => validateServerConfig()).toThrow(
      /REDACT_PATTERNS entry 2 \(\(unclosed\) is not a valid regular expression/,
    );
    stubEnv({ REDACT_PATTERNS: "ORD-.*" });
    expect(() => validateServerConfig()).toThrow(/REDACT_PATTERNS must be a JSON array/);
  });

  it.each([
    ["format=pdf", "format", /^Format: choose md, html or json/],
    ["format=md&tz=Mars%2FOlympus", "tz", /^Time zone: enter an IANA time zone name/],
    ["format=md&from=yesterday", "from", /^From: enter a date and time/],
    [
      `format=md&from=${encodeURIComponent(to)}&to=${encodeURIComponent(from)}`,
      "from",
      /^From: pick a time before To/,
    ],
    ["format=md&extra=1", "extra", /^extra: this request does not take it/],
  ])("%s is a 400 naming %s, and nothing is sent upstream", async (query, field, message) => {
    const cookie = await signedInCookie();
    hub.requests.length = 0;
    const response = await bundleRoute.GET(
      request("GET", path(query), { cookie }),
      ctx({ webhookId: WEBHOOK }),
    );
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(Object.keys(error.fields!)).toEqual([field]);
    expect(error.fields![field]![0]).toMatch(message);
    expect(hub.requests).toHaveLength(0);
  });

  it("without a session: 401, nothing upstream", async () => {
    const response = await bundleRoute.GET(request("GET", path("format=md")), ctx({ webhookId: WEBHOOK }));
    expect(response.status).toBe(401);
    expect(hub.requests).toHaveLength(0);
  });
});
