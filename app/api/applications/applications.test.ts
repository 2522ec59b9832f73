/**
 * The applications routes, called directly against a fake hub that records what reaches it:
 * adding (checked with the hub first, refused with the reason and nothing stored), `?app=` on
 * every route (the right key; an unknown id is not found without a hub call), a rejected key
 * marked while the others stay, the switcher's and "Look in my other applications"' plain forms.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import { request, signedInCookie } from "@/tests/support/route-requests";
import { fakeWebhook, sendJson, type FakeUpstream } from "@/tests/support/fake-upstream";
import { signInLimiter } from "@/lib/server/http/rate-limit";
import { forgetSharedReadsForTests } from "@/lib/server/hub/shared-reads";
import * as applicationsRoute from "@/app/api/applications/route";
import * as currentRoute from "@/app/api/applications/current/route";
import * as lookRoute from "@/app/api/applications/look/route";
import * as webhookRoute from "@/app/api/webhooks/[webhookId]/route";

const FIRST = "first-key-7f3a9c2e5b1d4e6f8a0b";
const SECOND = "second-key-0a1b2c3d4e5f60718293";
const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_TIMEOUT_MS: "800",
  HUB_SANDBOX: "",
});
let upstream: FakeUpstream;

/** The hub: FIRST sees no webhook; SECOND sees WEBHOOK; any other key is rejected. */
beforeEach(() => {
  upstream = fake.current;
  signInLimiter.reset();
  forgetSharedReadsForTests();
  upstream.handle = (req, res) => {
    const key = req.headers["x-api-key"];
    if (key !== FIRST && key !== SECOND) return sendJson(res, 401, { message: "Unauthorized" });
    if (key === SECOND && req.url?.endsWith(WEBHOOK)) return sendJson(res, 200, fakeWebhook(WEBHOOK));
    return sendJson(res, 404, { message: "Not found" });
  };
});

const cookieOf = (response: Response) => response.headers.get("set-cookie")?.split(";")[0];

async function add(cookie: string, body: { name: string; apiKey: string }) {
  return applicationsRoute.POST(request("POST", "/api/applications", { body, cookie }));
}

async function list(cookie: string) {
  const response = await applicationsRoute.GET(request("GET", "/api/applications", { cookie }));
  return (await response.json()) as {
    current: string;
    applications: Array<{ id: string; name: string; keyHint: string; rejected: boolean }>;
  };
}

async function twoApplications() {
  const signedIn = await signedInCookie(FIRST);
  const added = await add(signedIn, { name: "Staging", apiKey: SECOND });
  expect(added.status).toBe(201);
  const cookie = cookieOf(added)!;
  const { applications } = await list(cookie);
  return { cookie, first: applications[0]!, second: applications[1]! };
}

describe("adding an application", () => {
  it("checks the key with the hub, keeps it sealed, and answers without it", async () => {
    const { cookie, first, second } = await twoApplications();
    expect(upstream.requests.map((r) => r.headers["x-api-key"])).toEqual([SECOND]);
    const listed = await list(cookie);
    expect(listed.current).toBe(first.id);
    expect(listed.applications.map(({ name, keyHint, rejected }) => ({ name, keyHint, rejected }))).toEqual([
      { name: "Default", keyHint: "8a0b", rejected: false },
      { name: "Staging", keyHint: "8293", rejected: false },
    ]);
    expect(JSON.stringify(listed)).not.toContain(SECOND);
    expect(cookie).not.toContain(SECOND);
    expect(second.id).toMatch(/^[0-9a-f]{16}$/);
  });

  it("refuses a key the hub rejects with the reason, stores nothing, and keeps the session", async () => {
    const cookie = await signedInCookie(FIRST);
    const response = await add(cookie, { name: "Wrong", apiKey: "rejected-key-000000000000" });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { fields: Record<string, string[]> } };
    expect(error.fields.apiKey?.[0]).toMatch(
      /^API key: the Messaging Hub rejected this key \(HTTP 401\).*Paste the application's current key\. Nothing was stored/,
    );
    expect(response.headers.get("set-cookie")).toBeNull();
    expect((await list(cookie)).applications).toHaveLength(1);
  });

  it.each([
    ["an empty name", "  "],
    ["a name over 40 characters", "x".repeat(41)],
    ["a name already used", "default"],
  ])("refuses %s before asking the hub", async (_what, name) => {
    const cookie = await signedInCookie(FIRST);
    const response = await add(cookie, { name, apiKey: SECOND });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { fields: object } }).error.fields).toHaveProperty("name");
    expect(upstream.requests).toHaveLength(0);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("refuses a cross-site request (403) before anything else", async () => {
    const cookie = await signedInCookie(FIRST);
    const response = applicationsRoute.POST(
      request("POST", "/api/applications", {
        body: { name: "X", apiKey: SECOND },
        cookie,
        headers: { origin: "https://evil.example" },
      }),
    );
    expect((await response).status).toBe(403);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("?app= on the console's routes", () => {
  const getWebhook = (cookie: string, query = "") =>
    webhookRoute.GET(request("GET", `/api/webhooks/${WEBHOOK}${query}`, { cookie }), {
      params: Promise.resolve({ webhookId: WEBHOOK }),
    });

  it("uses the key of the application it names; without it, the current one's", async () => {
    const { cookie, second } = await twoApplications();
    upstream.requests.length = 0;
    expect((await getWebhook(cookie, `?app=${second.id}`)).status).toBe(200);
    expect((await getWebhook(cookie)).status).toBe(404);
    expect(upstream.requests.map((r) => r.headers["x-api-key"])).toEqual([SECOND, FIRST]);
  });

  it("an id the session does not hold is not found, and the hub is not called", async () => {
    const { cookie } = await twoApplications();
    upstream.requests.length = 0;
    const response = await getWebhook(cookie, "?app=0123456789abcdef");
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /not in your session/,
    );
    expect((await getWebhook(cookie, "?app=not-an-id")).status).toBe(400);
    expect(upstream.requests).toHaveLength(0);
  });

  it("a key the hub starts rejecting is marked (key_rejected), and the session and the other application stay", async () => {
    const { cookie, second } = await twoApplications();
    upstream.handle = (req, res) =>
      req.headers["x-api-key"] === SECOND ? sendJson(res, 401, {}) : sendJson(res, 404, {});
    const response = await getWebhook(cookie, `?app=${second.id}`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("key_rejected");
    const marked = cookieOf(response)!;
    expect(marked).not.toMatch(/=$/);
    expect((await list(marked)).applications.map((app) => app.rejected)).toEqual([false, true]);
    expect((await getWebhook(marked)).status).toBe(404); // the first application still answers
  });
});

describe("the plain forms", () => {
  it("the switcher makes an application current and lands on its webhooks (303)", async () => {
    const { cookie, second } = await twoApplications();
    const response = await currentRoute.POST(
      request("POST", "/api/applications/current", { form: `app=${second.id}`, cookie }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/webhooks");
    expect((await list(cookieOf(response)!)).current).toBe(second.id);
  });

  it("Look in my other applications opens the webhook under the one that has it, asking each once", async () => {
    const { cookie, first, second } = await twoApplications();
    upstream.requests.length = 0;
    const response = await lookRoute.POST(
      request("POST", "/api/applications/look", { form: `webhookId=${WEBHOOK}&app=${first.id}`, cookie }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/webhooks/${WEBHOOK}?app=${second.id}`);
    expect(upstream.requests.map((r) => r.headers["x-api-key"])).toEqual([SECOND]);
    const none = await lookRoute.POST(
      request("POST", "/api/applications/look", { form: `webhookId=${WEBHOOK}&app=${second.id}`, cookie }),
    );
    expect(none.headers.get("location")).toBe(`/webhooks/${WEBHOOK}?app=${second.id}&looked=none`);
  });
});
