/**
 * `GET /api/alerts/incidents`, called directly with a real (embedded, in-memory) store whose
 * incident rows are written as test data: one per failing webhook whatever holds on it (what the
 * banner and the Alerts page count), summaries apart, every application of the session listed by
 * its name, another application's incidents never, no session 401, and no hub call.
 */
import { addWatches } from "@/lib/server/watch/watches";
import { beforeEach, describe, expect, it } from "vitest";
import { firingText, type IncidentsAnswer } from "@/lib/domain/alerts/incidents";
import { applicationId } from "@/lib/server/session/key-hash";
import { sharedStoreContext } from "@/lib/server/store/context";
import { incidentRow } from "@/tests/support/alert-incidents";
import { fakeWebhook } from "@/tests/support/fake-upstream";
import { errorOf, request, signedInCookie, twoApplicationsCookie } from "@/tests/support/route-requests";
import { fakeUpstreamPerTest } from "@/tests/support/with-fake-upstream";
import * as incidentsRoute from "@/app/api/alerts/incidents/route";

const FIRST = "first-key-7f3a9c2e5b1d4e6f8a0b";
const SECOND = "second-key-0a1b2c3d4e5f60718293";
const STRANGER = "stranger-key-4d5e6f708192a3b4c5d6";
const A = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
const B = "1c8f6b5d-9a1f-4b6c-8d2e-3f4a5b6c7d8e";
const C = "2d9a7c6e-0b2a-4c7d-9e3f-4a5b6c7d8e9f";
const T = Date.parse("2026-11-25T10:00:00Z");

const fake = fakeUpstreamPerTest({
  SESSION_SECRET: "unit-test-session-secret-0123456789abcdef",
  HUB_SANDBOX: "",
  WATCH_DB: ":memory:",
  WATCH_IN_CONSOLE: "0",
});

async function list(cookie: string): Promise<IncidentsAnswer> {
  const response = await incidentsRoute.GET(request("GET", "/api/alerts/incidents", { cookie }));
  expect(response.status).toBe(200);
  return (await response.json()) as IncidentsAnswer;
}

beforeEach(async () => {
  const ctx = await sharedStoreContext();
  await ctx.db.deleteFrom("alert_incidents").execute();
  const store = await sharedStoreContext();
  for (const [key, webhookId, name] of [
    [FIRST, A, "Acme"],
    [SECOND, B, "Globex"],
    [STRANGER, C, "Not yours"],
  ] as const) {
    await addWatches(store, applicationId(key), key, [{ webhook: fakeWebhook(webhookId), name }]);
  }
  await ctx.db
    .insertInto("alert_incidents")
    .values([
      incidentRow({
        appId: applicationId(FIRST),
        webhookId: A,
        openedAt: T,
        conditions: [
          { rule: "streak", headline: "5 failures in a row" },
          { rule: "rate", headline: "100 % of 12 attempts failed in the last 15 minutes" },
          { rule: "errorsJump", headline: "numberOfErrors rose by 12 (0 → 12) in 15 minutes" },
        ],
      }),
      incidentRow({ appId: applicationId(SECOND), webhookId: B, openedAt: T + 1000 }),
      incidentRow({ appId: applicationId(SECOND), webhookId: "", scope: "summary", openedAt: T + 2000 }),
      incidentRow({
        appId: applicationId(FIRST),
        webhookId: A,
        openedAt: T - 5000,
        resolvedAt: T - 10,
        conditions: [{ rule: "inactive", headline: "the webhook is inactive" }],
      }),
      incidentRow({ appId: applicationId(STRANGER), webhookId: C, openedAt: T - 1000, headline: "secret" }),
      incidentRow({ appId: applicationId(STRANGER), webhookId: C, openedAt: T - 9000, resolvedAt: T + 20 }),
    ])
    .execute();
});

describe("GET /api/alerts/incidents", () => {
  it("lists one incident per failing webhook, with every condition, for each application of the session, by its name", async () => {
    const answer = await list(await twoApplicationsCookie(FIRST, SECOND));
    expect(answer.firing.map((i) => [i.applicationName, i.name, i.conditions.map((c) => c.name)])).toEqual([
      ["Default", "Acme", ["Failing streak", "Failure rate", "Errors jumped"]],
      ["Staging", "Globex", ["Failing streak"]],
    ]);
    // What the banner and the Alerts page say: webhooks, not conditions or summaries.
    expect(firingText(answer.firing)).toBe("2 webhooks failing");
    expect(answer.summaries.map((i) => [i.applicationName, i.scope])).toEqual([["Staging", "summary"]]);
    expect(answer.firing[0]!.href).toBe(`/webhooks/${A}?app=${applicationId(FIRST)}`);
    expect(answer.resolved.map((i) => [i.name, i.conditions.map((c) => c.name)])).toEqual([
      ["Acme", ["Webhook turned inactive"]],
    ]);
    const text = JSON.stringify(answer);
    for (const hidden of ["Not yours", "secret", C, applicationId(STRANGER), FIRST, SECOND]) {
      expect(text).not.toContain(hidden);
    }
    expect(fake.current.requests).toHaveLength(0);
  });

  it("a session of one application sees that application's only, whatever ?app= names", async () => {
    const cookie = await signedInCookie(SECOND);
    const response = await incidentsRoute.GET(
      request("GET", `/api/alerts/incidents?app=${applicationId(FIRST)}`, { cookie }),
    );
    expect(response.status).toBe(200);
    const answer = (await response.json()) as IncidentsAnswer;
    expect(answer.firing.map((i) => i.name)).toEqual(["Globex"]);
    expect(answer.resolved).toEqual([]);
  });

  it("needs a session", async () => {
    const response = await incidentsRoute.GET(request("GET", "/api/alerts/incidents"));
    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe("unauthorized");
  });
});
