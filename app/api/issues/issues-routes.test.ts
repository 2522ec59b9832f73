/**
 * The failure issue routes, called directly with a real (embedded, in-memory) store whose logs are
 * written as the watcher writes them: the list (only the session's applications', per webhook),
 * and a person's changes (acknowledge needs a note and a name; errors name the field by its label;
 * bad input changes nothing; another application's issue is not found).
 */
import { addWatches, listWatches, removeWatch } from "@/lib/server/watch/watches";
import { beforeEach, describe, expect, it } from "vitest";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { FailureIssue } from "@/lib/domain/watch/failure-issue";
import { applicationId } from "@/lib/server/session/key-hash";
import { claimDue, finishPoll, writeLogs } from "@/lib/server/watch/cursor";
import { sharedStoreContext } from "@/lib/server/store/context";
import { fakeWebhook } from "@/tests/support/fake-upstream";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { ctx, errorOf, request, signedInCookie } from "@/tests/support/route-requests";
import * as issuesRoute from "@/app/api/issues/route";
import * as issueRoute from "@/app/api/issues/[issueId]/route";

const FIRST = "first-key-7f3a9c2e5b1d4e6f8a0b";
const SECOND = "second-key-0a1b2c3d4e5f60718293";
const A = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
const B = "1c8f6b5d-9a1f-4b6c-8d2e-3f4a5b6c7d8e";
const OTHER = "2d9a7c6e-0b2a-4c7d-9e3f-4a5b6c7d8e9f";

fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_SANDBOX: "",
  WATCH_DB: ":memory:",
  WATCH_IN_CONSOLE: "0",
});

let n = 0;
function failedLog(webhookId: string, statusCode: number, body: string): WebhookLog {
  n++;
  const at = new Date(Date.now() - n * 1000).toISOString();
  return {
    id: `00000000-0000-4000-a000-${n.toString(16).padStart(12, "0")}`,
    webhookId,
    statusCode,
    responseBody: body,
    status: "Failed",
    sendAt: at,
    createdDate: at,
    messageId: null,
    webhook: { id: webhookId, endpoint: "https://example.test", eventType: "Message" },
  };
}

/** Stores logs of a watched webhook as the watcher does. */
async function stored(webhookId: string, logs: WebhookLog[]) {
  const context = await sharedStoreContext();
  const now = Date.now() + 3_600_000;
  await claimDue(context, "route-test", 100, 60_000, now);
  await writeLogs(
    context,
    "route-test",
    webhookId,
    logs,
    { head_id: logs[0]!.id, tail_offset: null },
    60_000,
    now,
  );
  await finishPoll(context, "route-test", webhookId, { nextPollAt: now, error: null }, now);
}

beforeEach(async () => {
  const store = await sharedStoreContext();
  const appIds = [FIRST, SECOND].map(applicationId);
  for (const watch of await listWatches(store, appIds)) await removeWatch(store, appIds, watch.webhookId);
  await addWatches(store, applicationId(FIRST), FIRST, [
    { webhook: { ...fakeWebhook(A), id: A }, name: "Acme" },
    { webhook: { ...fakeWebhook(B), id: B }, name: "Globex" },
  ]);
  await addWatches(store, applicationId(SECOND), SECOND, [
    { webhook: { ...fakeWebhook(OTHER), id: OTHER }, name: "Other" },
  ]);
  await stored(A, [
    failedLog(A, 500, '{"error":"boom","id":"req_0a1b2c3d4e5f"}'),
    failedLog(A, 404, "Not Found"),
  ]);
  await stored(B, [failedLog(B, 0, "")]);
  await stored(OTHER, [failedLog(OTHER, 401, "Unauthorized")]);
});

async function list(cookie: string, query = ""): Promise<FailureIssue[]> {
  const response = await issuesRoute.GET(request("GET", `/api/issues${query}`, { cookie }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { issues: FailureIssue[] }).issues;
}

function change(cookie: string, issueId: string, body: unknown, headers?: Record<string, string>) {
  return issueRoute.POST(
    request("POST", `/api/issues/${issueId}`, { body, cookie, headers }),
    ctx({ issueId }),
  );
}

describe("listing failure issues", () => {
  it("lists the issues of the session's applications only, worst first, and one webhook's on request", async () => {
    const first = await signedInCookie(FIRST);
    const issues = await list(first);
    expect(issues.map((i) => [i.webhookName, i.statusCode, i.state])).toEqual([
      ["Acme", 500, "open"],
      ["Acme", 404, "open"],
      ["Globex", 0, "open"],
    ]);
    expect(issues[0]).toMatchObject({
      failures: 1,
      signatureText: '{"error":"boom","id":"<id>"}',
      resolveAfter: 3,
    });
    expect(JSON.stringify(issues)).not.toContain(FIRST);
    expect((await list(first, `?webhookId=${B}`)).map((i) => i.statusCode)).toEqual([0]);
    // Another application's webhook: nothing, as for a webhook nobody watches.
    expect(await list(first, `?webhookId=${OTHER}`)).toEqual([]);
    expect((await list(await signedInCookie(SECOND))).map((i) => i.webhookName)).toEqual(["Other"]);
  });

  it("refuses a webhook ID that is not one, naming the field, and a request without a session", async () => {
    const response = await issuesRoute.GET(
      request("GET", "/api/issues?webhookId=nope", { cookie: await signedInCookie(FIRST) }),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.webhookId?.[0]).toMatch(/^Webhook ID: enter a UUID/);
    expect((await issuesRoute.GET(request("GET", "/api/issues"))).status).toBe(401);
  });
});

describe("changing a failure issue", () => {
  it("acknowledges with a note and a name, then resolves, ignores and reopens", async () => {
    const cookie = await signedInCookie(FIRST);
    const [issue] = await list(cookie);
    const acknowledged = await change(cookie, issue!.id, {
      action: "acknowledge",
      name: "  Ada  ",
      note: "Customer is redeploying",
    });
    expect(acknowledged.status).toBe(200);
    expect(((await acknowledged.json()) as { issue: FailureIssue }).issue).toMatchObject({
      id: issue!.id,
      state: "acknowledged",
      lastChange: { name: "Ada", note: "Customer is redeploying" },
    });
    const resolved = await change(cookie, issue!.id, { action: "resolve", name: "Ada" });
    expect(((await resolved.json()) as { issue: FailureIssue }).issue).toMatchObject({
      state: "resolved",
      resolved: { by: "person" },
      lastChange: { name: "Ada", note: null },
    });
    await change(cookie, issue!.id, { action: "ignore", name: "Bob" });
    expect((await list(cookie)).find((i) => i.id === issue!.id)?.state).toBe("ignored");
    await change(cookie, issue!.id, { action: "reopen", name: "Bob" });
    expect((await list(cookie)).find((i) => i.id === issue!.id)?.state).toBe("open");
  });

  it.each([
    [
      "no note to acknowledge",
      { action: "acknowledge", name: "Ada", note: "   " },
      "note",
      /^Note: say what is being done/,
    ],
    ["no name", { action: "acknowledge", name: " ", note: "On it" }, "name", /^Your name: type your name/],
    ["neither a name nor a note", { action: "acknowledge", name: "", note: "" }, "name", /^Your name: type/],
    ["a name too long", { action: "resolve", name: "x".repeat(81) }, "name", /^Your name: shorten it to 80/],
    ["an unknown action", { action: "delete", name: "Ada" }, "action", /^Action: choose one of acknowledge/],
  ])("refuses %s, naming the field, and changes nothing", async (_case, body, field, message) => {
    const cookie = await signedInCookie(FIRST);
    const before = await list(cookie);
    const response = await change(cookie, before[0]!.id, body);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.[field]?.[0]).toMatch(message);
    expect(await list(cookie)).toEqual(before);
  });

  it("answers not found for another application's issue, and refuses a cross-site request", async () => {
    const [theirs] = await list(await signedInCookie(SECOND));
    const cookie = await signedInCookie(FIRST);
    const response = await change(cookie, theirs!.id, { action: "resolve", name: "Mallory" });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe("not_found");
    const [mine] = await list(cookie);
    const crossSite = await change(
      cookie,
      mine!.id,
      { action: "resolve", name: "Mallory" },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    );
    expect(crossSite.status).toBe(403);
    expect((await list(cookie))[0]!.state).toBe("open");
    expect((await list(await signedInCookie(SECOND)))[0]!.state).toBe("open");
  });
});
