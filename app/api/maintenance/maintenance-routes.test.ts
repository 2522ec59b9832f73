/**
 * The maintenance routes, called directly with a real (embedded, in-memory) store and a fake hub:
 * a one-off and a weekly window added on a watched webhook and on the whole application, listed
 * with their current and next occurrence (a webhook's list holding its application's too), removed;
 * bad input refused by each field's label with nothing stored; another application's windows
 * neither seen nor removed.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { MaintenanceWindowView } from "@/lib/domain/maintenance/view";
import { ctx, errorOf, request, signedInCookie } from "@/tests/support/route-requests";
import { A, B, FIRST, OTHER, SECOND, watchRouteHub } from "@/tests/support/watch-route-hub";
import * as watchesRoute from "@/app/api/watches/route";
import * as maintenanceRoute from "@/app/api/maintenance/route";
import * as windowRoute from "@/app/api/maintenance/[windowId]/route";

watchRouteHub();

const DAY = 86_400_000;
/** A date-time `days` from now, in UTC, as a date-time field gives it. */
const local = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 16);

async function list(cookie: string, webhookId?: string): Promise<MaintenanceWindowView[]> {
  const query = webhookId ? `?webhookId=${webhookId}` : "";
  const response = await maintenanceRoute.GET(request("GET", `/api/maintenance${query}`, { cookie }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { windows: MaintenanceWindowView[] }).windows;
}

const add = (cookie: string, body: unknown) =>
  maintenanceRoute.POST(request("POST", "/api/maintenance", { cookie, body }));

const remove = (cookie: string, windowId: string) =>
  windowRoute.DELETE(request("DELETE", `/api/maintenance/${windowId}`, { cookie }), ctx({ windowId }));

let owner: string;
let stranger: string;
beforeEach(async () => {
  owner = await signedInCookie(FIRST);
  stranger = await signedInCookie(SECOND);
  for (const [cookie, ids] of [
    [owner, [A, B]],
    [stranger, [OTHER]],
  ] as const) {
    for (const webhookId of ids)
      await watchesRoute.POST(request("POST", "/api/watches", { body: { webhookId }, cookie }));
    // The store outlives a test: each starts with no window.
    for (const window of await list(cookie)) await remove(cookie, window.id);
  }
});

describe("adding, listing and removing windows", () => {
  it("a one-off window on a webhook and a weekly one on the application, each with where it stands", async () => {
    const [start, end] = [local(-0.01), local(1)];
    const once = await add(owner, {
      webhookId: A,
      repeats: "once",
      start,
      end,
      zone: "UTC",
      note: "Deploy of v2.3",
    });
    expect(once.status).toBe(201);
    const { window } = (await once.json()) as { window: MaintenanceWindowView };
    expect(window).toMatchObject({
      webhookId: A,
      note: "Deploy of v2.3",
      schedule: { kind: "once", zone: "UTC" },
      current: { start: `${start}:00.000Z`, end: `${end}:00.000Z` },
      next: null,
    });
    const weekly = await add(owner, {
      webhookId: null,
      repeats: "weekly",
      days: ["2", "4"],
      start: "14:00",
      durationMinutes: "90",
      zone: "europe/berlin",
    });
    expect(weekly.status).toBe(201);
    const applicationWide = ((await weekly.json()) as { window: MaintenanceWindowView }).window;
    expect(applicationWide).toMatchObject({
      webhookId: null,
      webhookName: null,
      note: "",
      schedule: { kind: "weekly", days: [2, 4], start: "14:00", durationMinutes: 90, zone: "Europe/Berlin" },
      next: { start: expect.stringMatching(/T1[23]:00:00\.000Z$/) },
    });

    // The application's list has both; A's has both; B's has the application's only.
    expect((await list(owner)).map((w) => w.id).sort()).toEqual([window.id, applicationWide.id].sort());
    expect((await list(owner, A)).map((w) => w.id)).toEqual([window.id, applicationWide.id]);
    expect((await list(owner, B)).map((w) => w.id)).toEqual([applicationWide.id]);
    // Another application sees none of them, and cannot remove them.
    expect(await list(stranger)).toEqual([]);
    expect((await remove(stranger, window.id)).status).toBe(404);

    expect((await remove(owner, window.id)).status).toBe(200);
    expect((await list(owner)).map((w) => w.id)).toEqual([applicationWide.id]);
  });
});

describe("bad input is refused by the field's label, and nothing is stored", () => {
  const once = { webhookId: A, repeats: "once", start: local(1), end: local(1.1), zone: "UTC" };
  const weekly = {
    webhookId: null,
    repeats: "weekly",
    days: [1],
    start: "02:00",
    durationMinutes: 60,
    zone: "UTC",
  };

  it.each([
    ["no kind", { ...once, repeats: "monthly" }, "repeats", "Repeats: choose once or weekly."],
    [
      "a start that is no date",
      { ...once, start: "next tuesday" },
      "start",
      "Starts: enter a date and a time, e.g. 2026-12-02T14:00.",
    ],
    ["an impossible date", { ...once, end: "2026-02-30T10:00" }, "end", /^Ends: enter a date and a time/],
    ["an end before the start", { ...once, end: local(0.5) }, "end", "Ends: pick a time after the start."],
    [
      "an end already past",
      { ...once, start: local(-2), end: local(-1) },
      "end",
      /^Ends: this time has passed \(.+\)\. Pick a time in the future\.$/,
    ],
    ["over 7 days", { ...once, end: local(9) }, "end", /^Ends: a one-off window lasts at most 7 days/],
    [
      "an unknown zone",
      { ...once, zone: "Mars/Olympus" },
      "zone",
      "Time zone: choose a time zone from the list (an IANA name such as Europe/Berlin).",
    ],
    [
      "an offset for a zone",
      { ...weekly, zone: "+02:00" },
      "zone",
      /^Time zone: choose a time zone from the list/,
    ],
    ["no day", { ...weekly, days: [] }, "days", "Days: tick at least one day of the week."],
    ["a day 8", { ...weekly, days: [8] }, "days", "Days: tick at least one day of the week."],
    [
      "a time past 23:59",
      { ...weekly, start: "24:00" },
      "start",
      "Starts at: enter a time on the 24-hour clock as HH:MM, e.g. 14:00.",
    ],
    [
      "a duration over a day",
      { ...weekly, durationMinutes: 1441 },
      "durationMinutes",
      "Duration (minutes): enter a whole number of minutes from 1 to 1440 (a day).",
    ],
    ["a duration of 0", { ...weekly, durationMinutes: 0 }, "durationMinutes", /^Duration \(minutes\): enter/],
    [
      "a webhook ID that is no ID",
      { ...once, webhookId: "not-an-id" },
      "webhookId",
      /^Webhook: enter a UUID/,
    ],
    [
      "a webhook this application does not watch",
      { ...once, webhookId: OTHER },
      "webhookId",
      `Webhook: this application does not watch ${OTHER}. Watch it first, or set the window on the whole application.`,
    ],
    ["a note too long", { ...weekly, note: "n".repeat(201) }, "note", /^Note: shorten it to 200 characters/],
    [
      "a field it does not take",
      { ...weekly, reason: "x" },
      "reason",
      "reason: this request does not take it; leave it out.",
    ],
  ])("%s", async (_name, body, field, message) => {
    const response = await add(owner, body);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.[field]?.[0]).toMatch(message);
    expect(await list(owner)).toEqual([]);
  });

  it("a window ID that is no ID is refused by its label", async () => {
    const response = await remove(owner, "nope");
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.windowId?.[0]).toMatch(
      /^Window ID: not a valid maintenance window ID/,
    );
  });

  it("needs a session, and refuses a cross-site request", async () => {
    expect((await maintenanceRoute.GET(request("GET", "/api/maintenance"))).status).toBe(401);
    const crossSite = await maintenanceRoute.POST(
      request("POST", "/api/maintenance", {
        cookie: owner,
        body: weekly,
        headers: { origin: "https://evil.example" },
      }),
    );
    expect(crossSite.status).toBe(403);
    expect(await list(owner)).toEqual([]);
  });
});
