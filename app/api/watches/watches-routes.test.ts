/**
 * The watch routes, called directly with a real (embedded, in-memory) store and a fake hub that
 * records what reaches it: watching one webhook and many (each read with the application's key
 * first; an ID the key does not read is refused with the hub's reason and nothing is stored),
 * rename, stop watching, the overview, a session that sees only its own applications' watches,
 * and handing a new key over after a rotation (listed first; the watches, rules, snoozes, quiet
 * hours and the destinations the person keeps move).
 */
import { listWatches, markKeyRejected } from "@/lib/server/watch/watches";
import { describe, expect, it } from "vitest";
import { applicationId } from "@/lib/server/session/key-hash";
import type { OverviewAnswer } from "@/lib/domain/watch/overview-page";
import type { BulkOutcome } from "@/lib/domain/watch/bulk-input";
import { errorOf, request, signedInCookie } from "@/tests/support/route-requests";
import { A, B, FIRST, OTHER, ROTATED, SECOND, watchRouteHub } from "@/tests/support/watch-route-hub";
import * as watchesRoute from "@/app/api/watches/route";
import * as bulkRoute from "@/app/api/watches/bulk/route";
import * as watchRoute from "@/app/api/watches/[webhookId]/route";
import * as nameRoute from "@/app/api/watches/[webhookId]/name/route";
import * as keyRoute from "@/app/api/watches/key/route";
import * as sessionRoute from "@/app/api/session/route";
import * as handOverRoute from "@/app/api/watches/hand-over/route";
import * as applicationsRoute from "@/app/api/applications/route";
import { sharedStoreContext, withStore } from "@/lib/server/store/context";
import type { HandOverPlan } from "@/lib/domain/watch/hand-over";
import { DEFAULT_RULES } from "@/lib/domain/alerts/rules";
import { addDestination, listDestinations } from "@/lib/server/alerts/destinations";
import {
  appRules,
  saveAppRules,
  saveWebhookOverride,
  webhookOverride,
} from "@/lib/server/alerts/rules-store";

const hub = watchRouteHub();

const cookieOf = (response: Response) => response.headers.get("set-cookie")?.split(";")[0];
const params = (webhookId: string) => ({ params: Promise.resolve({ webhookId }) });

async function watch(cookie: string, body: unknown) {
  return watchesRoute.POST(request("POST", "/api/watches", { body, cookie }));
}

async function overview(cookie: string, query = ""): Promise<OverviewAnswer> {
  const response = await watchesRoute.GET(request("GET", `/api/watches${query}`, { cookie }));
  expect(response.status).toBe(200);
  return (await response.json()) as OverviewAnswer;
}

describe("watching one webhook", () => {
  it("reads it with the application's key, keeps it with its name, and the overview lists it without the key", async () => {
    const cookie = await signedInCookie(FIRST);
    const response = await watch(cookie, { webhookId: ` ${A} `, name: "Acme" });
    expect(response.status).toBe(201);
    expect(hub.upstream.requests.map((r) => [r.url, r.headers["x-api-key"]])).toEqual([
      [`/v1/organization/webhook/${A}`, FIRST],
    ]);
    const answer = await overview(cookie);
    expect(
      answer.rows.map(({ webhookId, name, appId, endpoint }) => ({ webhookId, name, appId, endpoint })),
    ).toEqual([
      {
        webhookId: A,
        name: "Acme",
        appId: applicationId(FIRST),
        endpoint: `https://${A.slice(0, 4)}.example.test/hook`,
      },
    ]);
    expect(answer.applications.map((app) => app.name)).toEqual(["Default"]);
    expect(JSON.stringify(answer)).not.toContain(FIRST);
    const one = await watchRoute.GET(request("GET", `/api/watches/${A}`, { cookie }), params(A));
    expect(((await one.json()) as { watch: { name: string } }).watch.name).toBe("Acme");
  });

  it("refuses an ID that is not a webhook of the key's application with the hub's reason, and stores nothing", async () => {
    const cookie = await signedInCookie(FIRST);
    const response = await watch(cookie, { webhookId: OTHER, name: "Not ours" });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.fields?.webhookId?.[0]).toMatch(
      new RegExp(`No webhook ${OTHER} was found for this API key.*Nothing was stored`),
    );
    expect((await overview(cookie)).rows).toEqual([]);
    const one = await watchRoute.GET(request("GET", `/api/watches/${OTHER}`, { cookie }), params(OTHER));
    expect(await one.json()).toEqual({ watch: null });
  });

  it.each([
    [
      "a webhook ID that is not a UUID",
      { webhookId: "nope", name: "x" },
      "webhookId",
      /^Webhook ID: enter a UUID/,
    ],
    [
      "a name too long",
      { webhookId: A, name: "x".repeat(121) },
      "name",
      /^Watch name: shorten it to 120 characters/,
    ],
    ["no webhook ID", { name: "x" }, "webhookId", /^Webhook ID: enter it/],
  ])("refuses %s, naming the field, before asking the hub", async (_what, body, field, message) => {
    const cookie = await signedInCookie(FIRST);
    hub.upstream.requests.length = 0;
    const response = await watch(cookie, body);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.[field]?.[0]).toMatch(message);
    expect(hub.upstream.requests).toHaveLength(0);
  });

  it("refuses a cross-site request (403) before anything else", async () => {
    const cookie = await signedInCookie(FIRST);
    hub.upstream.requests.length = 0;
    const response = await watchesRoute.POST(
      request("POST", "/api/watches", {
        body: { webhookId: A },
        cookie,
        headers: { origin: "https://evil.example" },
      }),
    );
    expect(response.status).toBe(403);
    expect(hub.upstream.requests).toHaveLength(0);
    expect((await overview(cookie)).rows).toEqual([]);
  });
});

describe("watching many at once", () => {
  it("checks each line with the hub, keeps the ones it reads, and answers line by line", async () => {
    const cookie = await signedInCookie(FIRST);
    const text = ["id,name", `${A},"Acme, Inc."`, `${OTHER},Someone else's`, "not-an-id", "", B].join("\n");
    const response = await bulkRoute.POST(request("POST", "/api/watches/bulk", { body: { text }, cookie }));
    expect(response.status).toBe(200);
    const { outcomes } = (await response.json()) as { outcomes: BulkOutcome[] };
    expect(outcomes.map(({ line, status }) => [line, status])).toEqual([
      [2, "watched"],
      [3, "refused"],
      [4, "refused"],
      [6, "watched"],
    ]);
    expect(outcomes[1]!.message).toMatch(`No webhook ${OTHER} was found for this API key`);
    expect(outcomes[2]!.message).toMatch(/Line 4 is not a webhook ID/);
    // The line that is not an ID never reached the hub.
    expect(hub.upstream.requests.map((r) => r.url.split("/").at(-1)).sort()).toEqual([A, B, OTHER].sort());
    const rows = (await overview(cookie)).rows;
    expect(rows.map((row) => row.name).sort()).toEqual(
      ["Acme, Inc.", rows.find((r) => r.webhookId === B)!.name].sort(),
    );
    expect(rows.map((row) => row.webhookId).sort()).toEqual([A, B].sort());

    // Watched before: "already", and the line says whether its name changed.
    const again = await bulkRoute.POST(
      request("POST", "/api/watches/bulk", { body: { text: `${A},Acme\n${B}` }, cookie }),
    );
    const bName = rows.find((r) => r.webhookId === B)!.name;
    expect(
      ((await again.json()) as { outcomes: BulkOutcome[] }).outcomes.map(
        ({ status, message, renamedFrom }) => ({
          status,
          message,
          renamedFrom,
        }),
      ),
    ).toEqual([
      { status: "already", message: 'Renamed from "Acme, Inc." to "Acme".', renamedFrom: "Acme, Inc." },
      { status: "already", message: `Its name stays "${bName}".`, renamedFrom: undefined },
    ]);
  });

  it("lists them on the overview a page at a time, filtered on the server as its URL says", async () => {
    const many = Array.from(
      { length: 55 },
      (_, i) => `${String(i).padStart(8, "0")}-0000-4000-8000-000000000000`,
    );
    hub.reads[FIRST] = many;
    const cookie = await signedInCookie(FIRST);
    const text = many.map((id, i) => `${id},Customer ${String(i + 1).padStart(2, "0")}`).join("\n");
    const response = await bulkRoute.POST(request("POST", "/api/watches/bulk", { body: { text }, cookie }));
    expect(response.status).toBe(200);

    const first = await overview(cookie);
    expect([first.rows.length, first.watched, first.matching.length, first.page]).toEqual([
      50,
      55,
      55,
      { number: 1, count: 2, size: 50 },
    ]);
    const second = await overview(cookie, "?page=2");
    expect(second.rows).toHaveLength(5);
    expect(new Set([...first.rows, ...second.rows].map((row) => row.webhookId))).toEqual(new Set(many));
    expect((await overview(cookie, "?page=7")).page.number).toBe(2);

    const found = await overview(cookie, "?q=customer%2007");
    expect(found.rows.map((row) => row.name)).toEqual(["Customer 07"]);
    expect([found.watched, found.matching, found.page.count]).toEqual([55, [many[6]], 1]);
    // Nothing has failed yet; an application the session does not hold filters nothing.
    expect((await overview(cookie, "?failing=true")).matching).toEqual([]);
    expect((await overview(cookie, "?app=0123456789abcdef")).matching).toHaveLength(55);
  });

  it("refuses an empty paste, naming the field", async () => {
    const cookie = await signedInCookie(FIRST);
    const response = await bulkRoute.POST(
      request("POST", "/api/watches/bulk", { body: { text: " \n " }, cookie }),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.text?.[0]).toMatch(/^Webhook IDs: paste one ID per line/);
    expect(hub.upstream.requests).toHaveLength(0);
  });
});

describe("a watch after it is kept", () => {
  it("is renamed, refuses an empty name, and stops being watched", async () => {
    const cookie = await signedInCookie(FIRST);
    await watch(cookie, { webhookId: A, name: "Acme" });
    const renamed = await nameRoute.POST(
      request("POST", `/api/watches/${A}/name`, { body: { name: "Acme EU" }, cookie }),
      params(A),
    );
    expect(renamed.status).toBe(200);
    const empty = await nameRoute.POST(
      request("POST", `/api/watches/${A}/name`, { body: { name: " " }, cookie }),
      params(A),
    );
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).fields?.name?.[0]).toMatch(/^Watch name: give the watch a name/);
    expect((await overview(cookie)).rows.map((row) => row.name)).toEqual(["Acme EU"]);

    const stopped = await watchRoute.DELETE(request("DELETE", `/api/watches/${A}`, { cookie }), params(A));
    expect(stopped.status).toBe(200);
    expect((await overview(cookie)).rows).toEqual([]);
  });

  it("is seen and changed only by sessions holding its application's key", async () => {
    const owner = await signedInCookie(FIRST);
    await watch(owner, { webhookId: A, name: "Acme" });
    const stranger = await signedInCookie(SECOND);
    expect((await overview(stranger)).rows).toEqual([]);
    const seen = await watchRoute.GET(request("GET", `/api/watches/${A}`, { cookie: stranger }), params(A));
    expect(await seen.json()).toEqual({ watch: null });
    const rename = await nameRoute.POST(
      request("POST", `/api/watches/${A}/name`, { body: { name: "Mine" }, cookie: stranger }),
      params(A),
    );
    expect(rename.status).toBe(404);
    const stop = await watchRoute.DELETE(
      request("DELETE", `/api/watches/${A}`, { cookie: stranger }),
      params(A),
    );
    expect(stop.status).toBe(404);
    expect((await overview(owner)).rows.map((row) => row.name)).toEqual(["Acme"]);
  });
});
describe("handing over a rotated key", () => {
  const NOW = Date.now();
  const quietHours = { start: "22:00", end: "07:00", zone: "Europe/Berlin" };
  const snoozedUntil = new Date(NOW + 3_600_000).toISOString();

  /**
   * FIRST watches A (Acme) and B (Bravo), with its own rules, a snooze and quiet hours on Acme,
   * its own rules on Bravo, and two destinations: Team, and Planted (added with the old key by
   * whoever still held it). Then the hub rotates FIRST to ROTATED.
   */
  async function rotated() {
    const cookie = await signedInCookie(FIRST);
    await watch(cookie, { webhookId: A, name: "Acme" });
    await watch(cookie, { webhookId: B, name: "Bravo" });
    const ctx = await sharedStoreContext();
    const app = applicationId(FIRST);
    const team = await addDestination(ctx, app, { kind: "email", label: "Team", to: "team@example.com" });
    const planted = await addDestination(ctx, app, { kind: "email", label: "Planted", to: "x@evil.example" });
    await saveAppRules(ctx, app, { ...DEFAULT_RULES, cooldownMinutes: 45 });
    await saveWebhookOverride(ctx, app, A, { rules: {}, snoozedUntil, quietHours });
    await saveWebhookOverride(ctx, app, B, {
      rules: { streak: { enabled: true, min: 9 } },
      snoozedUntil: null,
      quietHours: null,
    });
    // The key is rotated at the hub: the old one is rejected, the new one reads the same webhooks.
    hub.reads = { [ROTATED]: [A, B], [SECOND]: [OTHER] };
    return { cookie, team: team.destination.id, planted: planted.destination.id };
  }

  /** The watcher met a 401 with the old key: what it records. */
  async function rejectOldKey() {
    await withStore((ctx) =>
      markKeyRejected(ctx, applicationId(FIRST), "The Messaging Hub rejected the key (401)."),
    );
  }

  /** Everything the console keeps under an application id. */
  async function keptUnder(key: string) {
    const ctx = await sharedStoreContext();
    const app = applicationId(key);
    return {
      watches: (await withStore((ctx) => listWatches(ctx, [app]))).map((w) => w.name),
      destinations: (await listDestinations(ctx, app)).map((d) => d.label),
      cooldown: (await appRules(ctx, app)).cooldownMinutes,
      acme: await webhookOverride(ctx, app, A),
      bravo: (await webhookOverride(ctx, app, B)).rules,
    };
  }

  const everything = {
    watches: ["Acme", "Bravo"],
    destinations: ["Planted", "Team"],
    cooldown: 45,
    acme: { rules: {}, snoozedUntil, quietHours },
    bravo: { streak: { enabled: true, min: 9 } },
  };
  const nothing = {
    watches: [],
    destinations: [],
    cooldown: DEFAULT_RULES.cooldownMinutes,
    acme: { rules: {}, snoozedUntil: null, quietHours: null },
    bravo: {},
  };

  /** What the hand-over must list before anything moves. */
  function expectListsEverything(plan: HandOverPlan) {
    expect(plan).toMatchObject({
      from: applicationId(FIRST),
      watches: [
        { webhookId: A, name: "Acme" },
        { webhookId: B, name: "Bravo" },
      ],
      rules: { defaults: true, webhooks: [{ webhookId: B, name: "Bravo" }] },
      snoozes: [{ webhookId: A, name: "Acme", until: snoozedUntil }],
      quietHours: [{ webhookId: A, name: "Acme", quietHours }],
    });
    expect(plan.destinations.map((d) => [d.label, d.target])).toEqual([
      ["Planted", expect.stringContaining("@evil.example")],
      ["Team", expect.stringContaining("@example.com")],
    ]);
    expect(JSON.stringify(plan)).not.toContain("x@evil.example");
  }

  function handOver(cookie: string, body: Record<string, unknown>) {
    return keyRoute.POST(
      request("POST", "/api/watches/key", { body: { app: applicationId(FIRST), ...body }, cookie }),
    );
  }

  it("refuses a key that does not read the same webhooks, and changes nothing", async () => {
    const { cookie } = await rotated();
    const response = await handOver(cookie, { apiKey: SECOND });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.apiKey?.[0]).toMatch(
      /^New API key: this key does not read the watched webhook/,
    );
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await keptUnder(FIRST)).toEqual(everything);
  });

  it("refuses a key the hub rejects by the field's label, and changes nothing", async () => {
    const { cookie } = await rotated();
    const response = await handOver(cookie, { apiKey: "unknown-key-0000000000000000" });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.apiKey?.[0]).toMatch(
      /^New API key: the Messaging Hub rejected this key \(HTTP 401\).*Paste the application's current key\./,
    );
    expect(await keptUnder(FIRST)).toEqual(everything);
  });

  it("lists what it carries first, then carries the watches, rules, snooze, quiet hours and only the destinations kept", async () => {
    const { cookie, team } = await rotated();
    await rejectOldKey();
    const listing = await handOver(cookie, { apiKey: ` ${ROTATED} ` });
    expect(listing.status).toBe(200);
    expect(listing.headers.get("set-cookie")).toBeNull();
    const text = await listing.text();
    expect(text).not.toContain(ROTATED);
    expectListsEverything((JSON.parse(text) as { handOver: HandOverPlan }).handOver);
    expect(await keptUnder(FIRST)).toEqual(everything);

    const response = await handOver(cookie, { apiKey: ROTATED, keepDestinations: [team] });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).not.toContain(ROTATED);
    expect(await keptUnder(ROTATED)).toEqual({ ...everything, destinations: ["Team"] });
    expect(await keptUnder(FIRST)).toEqual(nothing);
    const answer = await overview(cookieOf(response)!);
    expect(answer.rows.map((row) => [row.name, row.appId]).sort()).toEqual([
      ["Acme", applicationId(ROTATED)],
      ["Bravo", applicationId(ROTATED)],
    ]);
    expect(answer.applications.map((app) => app.id)).toEqual([applicationId(ROTATED)]);
  });

  it("refuses a destination that is not the application's, naming the field, and changes nothing", async () => {
    const { cookie, team } = await rotated();
    const response = await handOver(cookie, {
      apiKey: ROTATED,
      keepDestinations: [team, "00000000-0000-4000-8000-000000000000"],
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.keepDestinations?.[0]).toMatch(/^Alert destinations to keep: /);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await keptUnder(FIRST)).toEqual(everything);
  });

  it("is offered on signing in with the new key, listed, and carried only once the person chooses", async () => {
    const { planted, team } = await rotated();
    await rejectOldKey();
    const before = hub.upstream.requests.length;
    const response = await sessionRoute.POST(request("POST", "/api/session", { body: { apiKey: ROTATED } }));
    expect(response.status).toBe(200);
    // One read to check the key, then each watched webhook read with it.
    expect(hub.upstream.requests.slice(before).map((r) => r.url)).toEqual([
      expect.stringContaining("/webhook"),
      `/v1/organization/webhook/${A}`,
      `/v1/organization/webhook/${B}`,
    ]);
    const { handOver: offers } = (await response.json()) as { handOver: HandOverPlan[] };
    expect(offers).toHaveLength(1);
    expectListsEverything(offers[0]!);
    // Nothing moved yet.
    const cookie = cookieOf(response)!;
    expect((await overview(cookie)).rows).toEqual([]);
    expect(await keptUnder(FIRST)).toEqual(everything);

    const carried = await handOverRoute.POST(
      request("POST", "/api/watches/hand-over", {
        body: { from: applicationId(FIRST), keepDestinations: [team] },
        cookie,
      }),
    );
    expect(carried.status).toBe(200);
    const { carried: plan } = (await carried.json()) as { carried: HandOverPlan };
    expect(plan.destinations.map((d) => d.id)).toEqual([team]);
    expect(await keptUnder(ROTATED)).toEqual({ ...everything, destinations: ["Team"] });
    expect(
      (await listDestinations(await sharedStoreContext(), applicationId(FIRST))).map((d) => d.id),
    ).not.toContain(planted);
    const answer = await overview(cookie);
    expect(answer.rows.map((row) => [row.name, row.appId]).sort()).toEqual([
      ["Acme", applicationId(ROTATED)],
      ["Bravo", applicationId(ROTATED)],
    ]);
    expect(answer.health.keysRejected).toEqual([]);
    // Done once: nothing is left to carry.
    const again = await handOverRoute.POST(
      request("POST", "/api/watches/hand-over", {
        body: { from: applicationId(FIRST), keepDestinations: [] },
        cookie,
      }),
    );
    expect(again.status).toBe(404);
  });

  it("is offered on adding the new key as another application, and carried to that application", async () => {
    await rotated();
    await rejectOldKey();
    const cookie = await signedInCookie(SECOND);
    const response = await applicationsRoute.POST(
      request("POST", "/api/applications", { body: { name: "Acme shop", apiKey: ROTATED }, cookie }),
    );
    expect(response.status).toBe(201);
    const { handOver: offers } = (await response.json()) as { handOver: HandOverPlan[] };
    expectListsEverything(offers[0]!);
    const carried = await handOverRoute.POST(
      request("POST", `/api/watches/hand-over?app=${applicationId(ROTATED)}`, {
        body: { from: applicationId(FIRST), keepDestinations: [] },
        cookie: cookieOf(response)!,
      }),
    );
    expect(carried.status).toBe(200);
    expect(await keptUnder(ROTATED)).toEqual({ ...everything, destinations: [] });
    const answer = await overview(cookieOf(response)!);
    expect(answer.rows.map((row) => [row.name, row.appId]).sort()).toEqual([
      ["Acme", applicationId(ROTATED)],
      ["Bravo", applicationId(ROTATED)],
    ]);
  });

  it("is not offered to a key that reads none of the watched webhooks, nor while the old key still serves", async () => {
    await rotated();
    // Not rejected yet: a colleague signing in with the new key is offered nothing, and no hub call is made for it.
    const before = hub.upstream.requests.length;
    const colleague = await sessionRoute.POST(request("POST", "/api/session", { body: { apiKey: ROTATED } }));
    expect(hub.upstream.requests.length - before).toBe(1);
    expect(((await colleague.json()) as { handOver: unknown[] }).handOver).toEqual([]);
    const early = await handOverRoute.POST(
      request("POST", "/api/watches/hand-over", {
        body: { from: applicationId(FIRST), keepDestinations: [] },
        cookie: cookieOf(colleague)!,
      }),
    );
    expect(early.status).toBe(404);
    await rejectOldKey();
    const stranger = await sessionRoute.POST(request("POST", "/api/session", { body: { apiKey: SECOND } }));
    expect(((await stranger.json()) as { handOver: unknown[] }).handOver).toEqual([]);
    const taken = await handOverRoute.POST(
      request("POST", "/api/watches/hand-over", {
        body: { from: applicationId(FIRST), keepDestinations: [] },
        cookie: cookieOf(stranger)!,
      }),
    );
    expect(taken.status).toBe(404);
    expect((await overview(cookieOf(stranger)!)).rows).toEqual([]);
    expect(await keptUnder(FIRST)).toEqual(everything);
  });

  it("is refused for an application the session does not hold", async () => {
    await rotated();
    const stranger = await signedInCookie(SECOND);
    const response = await keyRoute.POST(
      request("POST", "/api/watches/key", {
        body: { app: applicationId(FIRST), apiKey: ROTATED },
        cookie: stranger,
      }),
    );
    expect(response.status).toBe(404);
  });
});
