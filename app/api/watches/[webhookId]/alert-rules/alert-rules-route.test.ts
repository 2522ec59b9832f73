/**
 * A watched webhook's own alert settings, called directly with a real (embedded, in-memory) store
 * and a fake hub: it follows its application's rules until it overrides some, snooze for a while
 * or until turned back on, quiet hours in a zone; nonsense refused with each field's label and
 * nothing stored; a webhook nobody in the session watches is the watch routes' 404.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "@/lib/domain/alerts/rules";
import { UNTIL_TURNED_ON } from "@/lib/domain/alerts/snooze";
import type { WebhookAlertSettings } from "@/lib/domain/alerts/webhook-alert-settings";
import { applicationId } from "@/lib/server/session/key-hash";
import { ctx, errorOf, request, signedInCookie } from "@/tests/support/route-requests";
import { A, B, FIRST, OTHER, SECOND, watchRouteHub } from "@/tests/support/watch-route-hub";
import * as watchesRoute from "@/app/api/watches/route";
import * as alertRulesRoute from "@/app/api/watches/[webhookId]/alert-rules/route";
import * as appRulesRoute from "@/app/api/alerts/rules/route";

watchRouteHub();

const path = (webhookId: string) => `/api/watches/${webhookId}/alert-rules`;

async function read(cookie: string, webhookId = A): Promise<WebhookAlertSettings> {
  const response = await alertRulesRoute.GET(request("GET", path(webhookId), { cookie }), ctx({ webhookId }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { settings: WebhookAlertSettings }).settings;
}

const put = (cookie: string, body: unknown, webhookId = A) =>
  alertRulesRoute.PUT(request("PUT", path(webhookId), { cookie, body }), ctx({ webhookId }));

let owner: string;
beforeEach(async () => {
  owner = await signedInCookie(FIRST);
  for (const webhookId of [A, B]) {
    const watched = await watchesRoute.POST(
      request("POST", "/api/watches", { body: { webhookId }, cookie: owner }),
    );
    expect(watched.status).toBe(201);
    // The store outlives a test: each starts with no settings of its own.
    expect((await put(owner, { rules: {}, quietHours: null, snooze: "off" }, webhookId)).status).toBe(200);
  }
  await appRulesRoute.PUT(request("PUT", "/api/alerts/rules", { cookie: owner, body: DEFAULT_RULES }));
});

describe("a watched webhook's alert settings", () => {
  it("follow the application's rules until it sets its own, rule by rule", async () => {
    expect(await read(owner)).toEqual({
      webhookId: A,
      appId: applicationId(FIRST),
      application: DEFAULT_RULES,
      override: { rules: {}, snoozedUntil: null, quietHours: null },
      rules: DEFAULT_RULES,
    });
    const appStreak = { ...DEFAULT_RULES, streak: { enabled: true, min: 8 } };
    await appRulesRoute.PUT(request("PUT", "/api/alerts/rules", { cookie: owner, body: appStreak }));

    const response = await put(owner, {
      rules: { rate: { enabled: true, percent: "90", windowMinutes: 5, minAttempts: 3 } },
    });
    expect(response.status).toBe(200);
    const settings = await read(owner);
    expect(settings.override.rules).toEqual({
      rate: { enabled: true, percent: 90, windowMinutes: 5, minAttempts: 3 },
    });
    // Its own rate; the application's streak (changed after), and the rest.
    expect(settings.rules).toEqual({
      ...appStreak,
      rate: { enabled: true, percent: 90, windowMinutes: 5, minAttempts: 3 },
    });
    // B follows the application alone.
    expect((await read(owner, B)).rules).toEqual(appStreak);

    await put(owner, { rules: {} });
    expect((await read(owner)).rules).toEqual(appStreak);
  });

  it("snooze for an hour, or until turned back on, and then back on; the rules and quiet hours stay", async () => {
    const quiet = { start: "22:00", end: "07:00", zone: "Europe/Berlin" };
    await put(owner, { quietHours: quiet, rules: { streak: { enabled: true, min: 2 } } });

    const before = Date.now();
    const snoozed = await put(owner, { snooze: "1h" });
    expect(snoozed.status).toBe(200);
    const until = Date.parse((await read(owner)).override.snoozedUntil!);
    expect(until).toBeGreaterThanOrEqual(before + 60 * 60 * 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + 60 * 60 * 1000);

    await put(owner, { snooze: "untilTurnedOn" });
    expect((await read(owner)).override).toEqual({
      rules: { streak: { enabled: true, min: 2 } },
      snoozedUntil: UNTIL_TURNED_ON,
      quietHours: quiet,
    });

    await put(owner, { snooze: "off" });
    const after = await read(owner);
    expect(after.override.snoozedUntil).toBeNull();
    expect(after.override.quietHours).toEqual(quiet);
    expect(after.override.rules).toEqual({ streak: { enabled: true, min: 2 } });
  });

  it("keep quiet hours in the zone's own spelling, and turn them off with null", async () => {
    await put(owner, { quietHours: { start: "23:30", end: "06:15", zone: " america/sao_paulo " } });
    expect((await read(owner)).override.quietHours).toEqual({
      start: "23:30",
      end: "06:15",
      zone: "America/Sao_Paulo",
    });
    await put(owner, { quietHours: null });
    expect((await read(owner)).override.quietHours).toBeNull();
  });

  it.each([
    [
      "a rate over 100 %",
      { rules: { rate: { enabled: true, percent: 101, windowMinutes: 15, minAttempts: 10 } } },
      "rules.rate.percent",
      /^Failure rate \(%\): /,
    ],
    [
      "a window of 0",
      { rules: { rate: { enabled: true, percent: 50, windowMinutes: "0", minAttempts: 10 } } },
      "rules.rate.windowMinutes",
      /^Over \(minutes\): /,
    ],
    [
      "a negative streak",
      { rules: { streak: { enabled: true, min: -1 } } },
      "rules.streak.min",
      /^Failing streak: /,
    ],
    [
      "a time that is no time",
      { quietHours: { start: "25:00", end: "07:00", zone: "UTC" } },
      "quietHours.start",
      /^Quiet from: enter a time/,
    ],
    [
      "a zone that is not one",
      { quietHours: { start: "22:00", end: "07:00", zone: "Moon/Base" } },
      "quietHours.zone",
      /^Time zone: /,
    ],
    [
      "an empty span",
      { quietHours: { start: "22:00", end: "22:00", zone: "UTC" } },
      "quietHours.end",
      /^Quiet until: /,
    ],
    ["a snooze of its own length", { snooze: "3d" }, "snooze", /^Snooze: choose one of/],
  ])(
    "refuse %s with the field's message, and store nothing (not even the valid parts)",
    async (_name, body, field, message) => {
      const response = await put(owner, { ...body, snooze: (body as { snooze?: string }).snooze ?? "4h" });
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.fields?.[field]?.[0]).toMatch(message);
      expect((await read(owner)).override).toEqual({ rules: {}, snoozedUntil: null, quietHours: null });
    },
  );

  it("are the watch routes' 404 for a webhook the session's applications do not watch", async () => {
    const stranger = await signedInCookie(SECOND);
    for (const [cookie, webhookId] of [
      [stranger, A],
      [owner, OTHER],
    ] as const) {
      const seen = await alertRulesRoute.GET(request("GET", path(webhookId), { cookie }), ctx({ webhookId }));
      expect(seen.status).toBe(404);
      expect((await errorOf(seen)).message).toMatch(
        new RegExp(`^Webhook ${webhookId} is not watched by an application of this session`),
      );
      expect((await put(cookie, { snooze: "24h" }, webhookId)).status).toBe(404);
    }
    expect((await read(owner)).override.snoozedUntil).toBeNull();
  });

  it("refuse a webhook ID that is not one", async () => {
    const response = await put(owner, { snooze: "1h" }, "not-an-id");
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.webhookId?.[0]).toMatch(/^Webhook ID: /);
  });
});
