/**
 * The support-bundle route, called directly with `new Request(...)` against a fake hub that
 * serves a webhook and its logs: each format, redaction (default rules, REDACT_PATTERNS, the
 * session's own key), the 400s that send nothing, and a session-less call. A failure issue's
 * bundle reads the issue from a real (embedded, in-memory) watch store.
 */
import { addWatches, listWatches, removeWatch } from "@/lib/server/watch/watches";
import { listIssues } from "@/lib/server/watch/failure-issues";
import { beforeEach, describe, expect, it } from "vitest";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { FailureIssue } from "@/lib/domain/watch/failure-issue";
import { applicationId } from "@/lib/server/session/key-hash";
import { sharedStoreContext, withStore } from "@/lib/server/store/context";
import { fakeWebhook, sendJson } from "@/tests/support/fake-upstream";
import { storeLogs } from "@/tests/support/watch-databases";
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
import { closeSharedStore } from "@/lib/server/store/context";
import { validateServerConfig } from "@/lib/server/config";
import * as bundleRoute from "@/app/api/webhooks/[webhookId]/bundle/route";

const hub = fakeHubForRoutes();
const NOW = Date.now();
const MIN = 60_000;
const id = (n: number, p = "1") => `${p.repeat(8)}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

/** Newest first: 30 failures a minute apart (a 500 whose body leaks secrets), then successes. */
const LOGS: WebhookLog[] = Array.from({ length: 120 }, (_, i) => {
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

/** What the fake hub lists: LOGS unless a test serves others. */
let served = LOGS;

beforeEach(async () => {
  await closeSharedStore();
  stubEnv({ WATCH_DB: ":memory:", WATCH_IN_CONSOLE: "0" });
  served = LOGS;
  const store = await sharedStoreContext();
  for (const watch of await listWatches(store, [applicationId(KEY)])) {
    await removeWatch(store, [applicationId(KEY)], watch.webhookId);
  }
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
      data: served.slice(offset, offset + limit),
      pagination: { offset, limit, total: served.length, totalPages: Math.ceil(served.length / limit) },
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
    expect(body.counts).toEqual({ attempts: 10, succeeded: 0, failed: 10, otherFailed: 0 });
    expect(body.issue).toBeNull();
    expect(body.changes.sentence).toMatch(/^This webhook is not watched, so its changes/);
    // The streak started before the window: all 30 failures, back to the success at minute 31.
    expect(body.streak).toMatchObject({ length: 30, atLeast: false, startedAt: LOGS[29]!.sendAt });
    expect(body.comparison.lastSuccess.id).toBe(LOGS[30]!.id);
    expect(body.comparison.summary).toMatch(
      /; this delivery then failed: 500 with 'database connection lost'\.$/,
    );
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

  it("of a failure issue: its span and only its failures, from the watch's issue; another issue ID is a 404 naming the field", async () => {
    // Newest first: 500s and 502s taking turns for 20 minutes, then successes.
    served = LOGS.map((entry, i) =>
      i < 20 && i % 2 === 1
        ? { ...entry, statusCode: 502, responseBody: "<html><title>502 Bad Gateway</title></html>" }
        : entry,
    );
    await withStore((ctx) => addWatches(ctx, applicationId(KEY), KEY, [{ webhook: fakeWebhook(WEBHOOK) }]));
    await storeLogs(await sharedStoreContext(), WEBHOOK, served);
    const issues = await withStore((ctx) => listIssues(ctx, [applicationId(KEY)], { webhookId: WEBHOOK }));
    const issue = issues.find((candidate: FailureIssue) => candidate.statusCode === 502)!;
    expect(issue.failures).toBe(10);

    const cookie = await signedInCookie();
    const response = await bundleRoute.GET(
      request("GET", path(`issue=${issue.id}&format=json`), { cookie }),
      ctx({ webhookId: WEBHOOK }),
    );
    expect(response.status).toBe(200);
    const body = JSON.parse(await response.text());
    expect(body.window).toMatchObject({ from: issue.firstFailure.at, to: issue.lastFailure.at });
    expect(body.issue).toMatchObject({ id: issue.id, failures: 10, title: "HTTP 502 Bad Gateway" });
    // Its 10 failures; the 500s between them are counted apart and not sampled.
    expect(body.counts).toEqual({ attempts: 19, succeeded: 0, failed: 10, otherFailed: 9 });
    expect(body.samples.map((sample: { statusCode: number }) => sample.statusCode)).toEqual([502]);
    expect(body.comparison.failed.id).toBe(issue.lastFailure.logId);
    expect(body.changes.sentence).toMatch(
      /^The webhook itself \(active, numberOfErrors\) did not change since the watch began at .+, after the last success/,
    );

    const other = await bundleRoute.GET(
      request("GET", path(`issue=${id(9, "9")}&format=md`), { cookie }),
      ctx({ webhookId: WEBHOOK }),
    );
    expect(other.status).toBe(404);
    expect((await errorOf(other)).fields?.issue?.[0]).toMatch(/is not an issue of this webhook/);
  });

  it("of a watched webhook: its history read from the watch's store, no page of logs from the hub", async () => {
    await withStore((ctx) => addWatches(ctx, applicationId(KEY), KEY, [{ webhook: fakeWebhook(WEBHOOK) }]));
    await storeLogs(await sharedStoreContext(), WEBHOOK, LOGS, Date.now(), { history_complete: 1 });
    served = [];
    hub.requests.length = 0;
    const body = JSON.parse(await (await bundle("json", await signedInCookie())).text());
    expect(body.counts).toEqual({ attempts: 10, succeeded: 0, failed: 10, otherFailed: 0 });
    expect(body.streak).toMatchObject({ length: 30, atLeast: false, startedAt: LOGS[29]!.sendAt });
    expect(body.comparison.lastSuccess.id).toBe(LOGS[30]!.id);
    expect(hub.requests.filter((r) => r.url.includes("/webhook-log"))).toHaveLength(0);
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
