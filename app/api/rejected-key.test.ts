/**
 * A key the hub rejects loses its power over what the console stores, as it loses it over the
 * hub's data: every route that reads or changes stored data (the table below) refuses a session
 * whose key is marked rejected (the watcher's mark in the store, or the hub's 401 in the cookie),
 * with the hub's 401, and reads and changes nothing. A session of several applications keeps the
 * others. The last test checks the table names every route of the API or says why it needs none.
 */
import { markKeyRejected } from "@/lib/server/watch/watches";
import { listIssues } from "@/lib/server/watch/failure-issues";
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applicationId } from "@/lib/server/session/key-hash";
import { addDestination } from "@/lib/server/alerts/destinations";
import { saveAppRules, saveWebhookOverride } from "@/lib/server/alerts/rules-store";
import { DEFAULT_RULES } from "@/lib/domain/alerts/rules";
import { sharedStoreContext, withStore } from "@/lib/server/store/context";
import { storeLogs } from "@/tests/support/watch-databases";
import { webhookLog } from "@/tests/support/webhook-log";
import {
  clearsCookie,
  ctx,
  errorOf,
  request,
  signedInCookie,
  twoApplicationsCookie,
} from "@/tests/support/route-requests";
import { A, FIRST, OTHER, SECOND, watchRouteHub } from "@/tests/support/watch-route-hub";
import * as watchesRoute from "@/app/api/watches/route";
import * as bulkRoute from "@/app/api/watches/bulk/route";
import * as watchRoute from "@/app/api/watches/[webhookId]/route";
import * as nameRoute from "@/app/api/watches/[webhookId]/name/route";
import * as watchRulesRoute from "@/app/api/watches/[webhookId]/alert-rules/route";
import * as findAcrossRoute from "@/app/api/watches/find/route";
import * as handOverRoute from "@/app/api/watches/hand-over/route";
import * as issuesRoute from "@/app/api/issues/route";
import * as issueRoute from "@/app/api/issues/[issueId]/route";
import * as rulesRoute from "@/app/api/alerts/rules/route";
import * as destinationsRoute from "@/app/api/alerts/destinations/route";
import * as destinationRoute from "@/app/api/alerts/destinations/[destinationId]/route";
import * as destinationTestRoute from "@/app/api/alerts/destinations/[destinationId]/test/route";
import * as deliveriesRoute from "@/app/api/alerts/deliveries/route";
import * as incidentsRoute from "@/app/api/alerts/incidents/route";
import * as historyRoute from "@/app/api/webhooks/[webhookId]/history/route";
import * as exportRoute from "@/app/api/webhooks/[webhookId]/history/export/route";
import * as healthRoute from "@/app/api/webhooks/[webhookId]/history/health/route";
import * as findRoute from "@/app/api/webhooks/[webhookId]/history/find/route";
import * as bundleRoute from "@/app/api/webhooks/[webhookId]/bundle/route";
import * as lastSuccessRoute from "@/app/api/webhooks/[webhookId]/logs/[logId]/last-success/route";
import * as maintenanceRoute from "@/app/api/maintenance/route";
import * as maintenanceWindowRoute from "@/app/api/maintenance/[windowId]/route";
import * as applicationsRoute from "@/app/api/applications/route";
import { addMaintenance } from "@/lib/server/maintenance/service";
import { POLL_HEADER } from "@/lib/domain/query-keys";

const hub = watchRouteHub();

const LOG = "3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b";
const MESSAGE = "4f5a6b7c-8d9e-4f0a-9b1c-2d3e4f5a6b7c";
const OLDER = "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d";
/** What FIRST keeps: none of it may appear in an answer to its rejected key. */
const SECRETS = ["Acme", "Team pager", "boom-42", LOG, MESSAGE];

interface Kept {
  issue: string;
  destination: string;
  window: string;
}

/**
 * FIRST watches A (Acme) with a success and a failure stored (a failure issue), a destination,
 * its own rules, a snooze and a maintenance window. SECOND watches OTHER.
 */
async function keptFor(): Promise<Kept> {
  const first = await signedInCookie(FIRST);
  expect(
    (
      await watchesRoute.POST(
        request("POST", "/api/watches", { body: { webhookId: A, name: "Acme" }, cookie: first }),
      )
    ).status,
  ).toBe(201);
  const second = await signedInCookie(SECOND);
  expect(
    (
      await watchesRoute.POST(
        request("POST", "/api/watches", { body: { webhookId: OTHER, name: "Other" }, cookie: second }),
      )
    ).status,
  ).toBe(201);
  const context = await sharedStoreContext();
  const now = Date.now();
  await storeLogs(context, A, [
    webhookLog(A, now - 1000, 500, '{"error":"boom-42"}', { id: LOG, messageId: MESSAGE }),
    webhookLog(A, now - 60_000, 200, "ok", { id: OLDER, messageId: OLDER }),
  ]);
  const app = applicationId(FIRST);
  const { destination } = await addDestination(context, app, {
    kind: "email",
    label: "Team pager",
    to: "pager@example.com",
  });
  await saveAppRules(context, app, { ...DEFAULT_RULES, cooldownMinutes: 45 });
  await saveWebhookOverride(context, app, A, {
    rules: {},
    snoozedUntil: new Date(now + 3_600_000).toISOString(),
    quietHours: null,
  });
  const window = await addMaintenance(app, {
    webhookId: A,
    repeats: "weekly",
    days: [1],
    start: "02:00",
    durationMinutes: 60,
    zone: "UTC",
    note: "Acme deploy",
  });
  const [issue] = await withStore((ctx) => listIssues(ctx, [app]));
  return { issue: issue!.id, destination: destination.id, window: window.id };
}

/** The watcher met the hub's 401 with FIRST: the key is rotated away, and marked. */
async function rejectFirst(): Promise<void> {
  hub.reads = { [SECOND]: [OTHER] };
  await withStore((ctx) =>
    markKeyRejected(ctx, applicationId(FIRST), "The Messaging Hub rejected the key (HTTP 401)."),
  );
}

/** Every row of every table a route could change (sign-outs aside, which a refusal records). */
async function snapshot(): Promise<string> {
  const { db } = await sharedStoreContext();
  const tables = [
    "watches",
    "watch_keys",
    "watch_state",
    "watch_logs",
    "watch_log_hours",
    "watch_timeline",
    "failure_issues",
    "failure_issue_samples",
    "alert_destinations",
    "alert_deliveries",
    "alert_rules",
    "alert_incidents",
    "alert_applications",
    "maintenance_windows",
  ] as const;
  const rows: Record<string, unknown[]> = {};
  for (const table of tables) {
    const all = await db.selectFrom(table).selectAll().execute();
    rows[table] = all.map((row) => JSON.stringify(row)).sort();
  }
  return JSON.stringify(rows);
}

type Call = (cookie: string, kept: Kept) => Promise<Response>;

const hook = { webhookId: A };
const json = (body: unknown, cookie: string) => ({ body, cookie });

/** Every route that reads or changes stored data, by its file and method, with a request that would work for a valid key. */
const STORE_ROUTES: Array<[string, Call]> = [
  ["watches GET", (cookie) => watchesRoute.GET(request("GET", "/api/watches", { cookie }))],
  [
    "watches POST",
    (cookie) =>
      watchesRoute.POST(request("POST", "/api/watches", json({ webhookId: A, name: "Planted" }, cookie))),
  ],
  [
    "watches/bulk POST",
    (cookie) => bulkRoute.POST(request("POST", "/api/watches/bulk", json({ text: A }, cookie))),
  ],
  [
    "watches/[webhookId] GET",
    (cookie) => watchRoute.GET(request("GET", `/api/watches/${A}`, { cookie }), ctx(hook)),
  ],
  [
    "watches/[webhookId] DELETE",
    (cookie) => watchRoute.DELETE(request("DELETE", `/api/watches/${A}`, { cookie }), ctx(hook)),
  ],
  [
    "watches/[webhookId]/name POST",
    (cookie) =>
      nameRoute.POST(request("POST", `/api/watches/${A}/name`, json({ name: "Mine" }, cookie)), ctx(hook)),
  ],
  [
    "watches/[webhookId]/alert-rules GET",
    (cookie) => watchRulesRoute.GET(request("GET", `/api/watches/${A}/alert-rules`, { cookie }), ctx(hook)),
  ],
  [
    "watches/[webhookId]/alert-rules PUT",
    (cookie) =>
      watchRulesRoute.PUT(
        request("PUT", `/api/watches/${A}/alert-rules`, json({ snooze: "off", quietHours: null }, cookie)),
        ctx(hook),
      ),
  ],
  [
    "watches/find GET",
    (cookie) => findAcrossRoute.GET(request("GET", `/api/watches/find?q=${MESSAGE}`, { cookie })),
  ],
  [
    "watches/hand-over POST",
    (cookie) =>
      handOverRoute.POST(
        request(
          "POST",
          "/api/watches/hand-over",
          json({ from: applicationId(SECOND), keepDestinations: [] }, cookie),
        ),
      ),
  ],
  ["issues GET", (cookie) => issuesRoute.GET(request("GET", "/api/issues", { cookie }))],
  [
    "issues/[issueId] POST",
    (cookie, kept) =>
      issueRoute.POST(
        request(
          "POST",
          `/api/issues/${kept.issue}`,
          json({ action: "resolve", name: "Mallory", note: "" }, cookie),
        ),
        ctx({ issueId: kept.issue }),
      ),
  ],
  ["alerts/rules GET", (cookie) => rulesRoute.GET(request("GET", "/api/alerts/rules", { cookie }))],
  [
    "alerts/rules PUT",
    (cookie) =>
      rulesRoute.PUT(
        request(
          "PUT",
          "/api/alerts/rules",
          json({ ...DEFAULT_RULES, streak: { enabled: false, min: 5 } }, cookie),
        ),
      ),
  ],
  [
    "alerts/destinations GET",
    (cookie) => destinationsRoute.GET(request("GET", "/api/alerts/destinations", { cookie })),
  ],
  [
    "alerts/destinations POST",
    (cookie) =>
      destinationsRoute.POST(
        request(
          "POST",
          "/api/alerts/destinations",
          json({ kind: "email", label: "Planted", to: "x@evil.example" }, cookie),
        ),
      ),
  ],
  [
    "alerts/destinations/[destinationId] DELETE",
    (cookie, kept) =>
      destinationRoute.DELETE(
        request("DELETE", `/api/alerts/destinations/${kept.destination}`, { cookie }),
        ctx({ destinationId: kept.destination }),
      ),
  ],
  [
    "alerts/destinations/[destinationId]/test POST",
    (cookie, kept) =>
      destinationTestRoute.POST(
        request("POST", `/api/alerts/destinations/${kept.destination}/test`, { cookie }),
        ctx({ destinationId: kept.destination }),
      ),
  ],
  [
    "alerts/deliveries GET",
    (cookie) => deliveriesRoute.GET(request("GET", "/api/alerts/deliveries", { cookie })),
  ],
  [
    "alerts/incidents GET",
    (cookie) => incidentsRoute.GET(request("GET", "/api/alerts/incidents", { cookie })),
  ],
  [
    "maintenance GET",
    (cookie) => maintenanceRoute.GET(request("GET", `/api/maintenance?webhookId=${A}`, { cookie })),
  ],
  [
    "maintenance POST",
    (cookie) =>
      maintenanceRoute.POST(
        request(
          "POST",
          "/api/maintenance",
          json(
            {
              webhookId: A,
              repeats: "weekly",
              days: [2],
              start: "03:00",
              durationMinutes: 30,
              zone: "UTC",
            },
            cookie,
          ),
        ),
      ),
  ],
  [
    "maintenance/[windowId] DELETE",
    (cookie, kept) =>
      maintenanceWindowRoute.DELETE(
        request("DELETE", `/api/maintenance/${kept.window}`, { cookie }),
        ctx({ windowId: kept.window }),
      ),
  ],
  [
    "webhooks/[webhookId]/history GET",
    (cookie) =>
      historyRoute.GET(request("GET", `/api/webhooks/${A}/history?status=Failed`, { cookie }), ctx(hook)),
  ],
  [
    "webhooks/[webhookId]/history/export GET",
    (cookie) =>
      exportRoute.GET(request("GET", `/api/webhooks/${A}/history/export?format=csv`, { cookie }), ctx(hook)),
  ],
  [
    "webhooks/[webhookId]/history/health GET",
    (cookie) =>
      healthRoute.GET(request("GET", `/api/webhooks/${A}/history/health?window=24h`, { cookie }), ctx(hook)),
  ],
  [
    "webhooks/[webhookId]/history/find GET",
    (cookie) =>
      findRoute.GET(request("GET", `/api/webhooks/${A}/history/find?q=${LOG}`, { cookie }), ctx(hook)),
  ],
  [
    "webhooks/[webhookId]/bundle GET",
    (cookie, kept) =>
      bundleRoute.GET(
        request("GET", `/api/webhooks/${A}/bundle?format=json&issue=${kept.issue}`, { cookie }),
        ctx(hook),
      ),
  ],
  [
    "webhooks/[webhookId]/logs/[logId]/last-success GET",
    (cookie) =>
      lastSuccessRoute.GET(
        request("GET", `/api/webhooks/${A}/logs/${LOG}/last-success`, { cookie }),
        ctx({ webhookId: A, logId: LOG }),
      ),
  ],
];

/**
 * Routes that read or change no stored data of an application, and why a rejected key gets
 * nothing from them: the hub answers them (and refuses the key itself), they are about the
 * session, or their authority is a new key the hub accepts.
 */
const OTHER_ROUTES: Record<string, string> = {
  "[...path]": "answers 404 for an unknown route",
  health: "the console's own health",
  "health/ready": "the console's own readiness",
  session: "sign in (a new key the hub accepts) and sign out",
  "session/demo": "signs in with the sandbox's demo key",
  "session/end": "ends the session",
  "messages/[channelKind]": "the hub sends the message, and refuses a rejected key",
  "webhooks/[webhookId]": "the hub's webhook, with the key: the hub refuses a rejected one",
  "webhooks/[webhookId]/logs": "the hub's log page, with the key",
  "webhooks/[webhookId]/logs/[logId]/retry": "the hub resends, with the key",
  applications: "the session's applications; adding one checks its key with the hub",
  "applications/current": "switches the session's application",
  "applications/name": "renames an application of the session",
  "applications/remove": "removes an application from the session",
  "applications/rejected": "marks a key the hub rejects",
  "applications/look": "asks the hub with each key",
  "applications/demo": "adds the sandbox's demo applications",
  "applications/key": "Replace key: its authority is the new key, which must read every watched webhook",
  "watches/key": "Hand over key: its authority is the new key, which must read every watched webhook",
};

describe("a session whose only key is rejected", () => {
  it.each(STORE_ROUTES)(
    "%s: the hub's 401, the session ends, and nothing is read or changed",
    async (_route, call) => {
      const kept = await keptFor();
      const cookie = await signedInCookie(FIRST);
      await rejectFirst();
      const before = await snapshot();
      const calls = hub.upstream.requests.length;

      const response = await call(cookie, kept);
      expect(response.status).toBe(401);
      const error = await errorOf(response);
      expect(error.code).toBe("unauthorized");
      expect(error.message).toMatch(
        /rejects the key of "Default".*Sign in with the application's current key/,
      );
      expect(clearsCookie(response)).toBe(true);
      for (const secret of SECRETS) expect(JSON.stringify(error)).not.toContain(secret);
      expect(hub.upstream.requests.length).toBe(calls);
      expect(await snapshot()).toBe(before);
    },
  );

  it("answers a poll (the alerts banner's) with the 401 but ends no session: the person's own request does", async () => {
    await keptFor();
    const cookie = await signedInCookie(FIRST);
    await rejectFirst();
    const before = await snapshot();
    const polled = await incidentsRoute.GET(
      request("GET", "/api/alerts/incidents", { cookie, headers: { [POLL_HEADER]: "1" } }),
    );
    expect(polled.status).toBe(401);
    expect(polled.headers.get("set-cookie")).toBeNull();
    const body = await polled.text();
    for (const secret of SECRETS) expect(body).not.toContain(secret);
    expect(await snapshot()).toBe(before);
    // The session still holds (Replace key on the Applications page works from it)…
    const applications = await applicationsRoute.GET(request("GET", "/api/applications", { cookie }));
    expect(applications.status).toBe(200);
    // …until the person's own read meets the 401: that ends it.
    const own = await incidentsRoute.GET(request("GET", "/api/alerts/incidents", { cookie }));
    expect(clearsCookie(own)).toBe(true);
    expect((await applicationsRoute.GET(request("GET", "/api/applications", { cookie }))).status).toBe(401);
  });

  it("is refused the same when the hub's 401 was met by a route (the cookie's mark), not by the watcher", async () => {
    await keptFor();
    const cookie = await twoApplicationsCookie(FIRST, SECOND);
    // A hub call with FIRST answered 401: the route marked it in the cookie.
    hub.reads = { [SECOND]: [OTHER] };
    const marked = await watchesRoute.POST(
      request("POST", `/api/watches?app=${applicationId(FIRST)}`, json({ webhookId: A, name: "x" }, cookie)),
    );
    expect((await errorOf(marked)).code).toBe("key_rejected");
    const markedCookie = marked.headers.get("set-cookie")!.split(";")[0]!;
    const before = await snapshot();
    const response = await destinationsRoute.GET(
      request("GET", `/api/alerts/destinations?app=${applicationId(FIRST)}`, { cookie: markedCookie }),
    );
    expect(response.status).toBe(401);
    expect(JSON.stringify(await response.json())).not.toContain("Team pager");
    expect(await snapshot()).toBe(before);
  });
});

describe("a session of several applications, one of whose keys is rejected", () => {
  it("keeps the others: lists and finds only theirs, says which key is rejected, and refuses the rejected one's", async () => {
    const kept = await keptFor();
    const cookie = await twoApplicationsCookie(FIRST, SECOND);
    await rejectFirst();
    const before = await snapshot();

    const overview = await watchesRoute.GET(request("GET", "/api/watches", { cookie }));
    expect(overview.status).toBe(200);
    const answer = (await overview.json()) as {
      rows: Array<{ name: string }>;
      health: { keysRejected: string[] };
      applications: Array<{ id: string; rejected: boolean }>;
    };
    expect(answer.rows.map((row) => row.name)).toEqual(["Other"]);
    expect(answer.health.keysRejected).toEqual([applicationId(FIRST)]);
    expect(answer.applications.find((app) => app.id === applicationId(FIRST))?.rejected).toBe(true);
    // The mark goes into the cookie, so the header and the Applications page say so.
    const markedCookie = overview.headers.get("set-cookie")!.split(";")[0]!;
    for (const secret of SECRETS) expect(JSON.stringify(answer)).not.toContain(secret);

    const issues = await issuesRoute.GET(request("GET", "/api/issues", { cookie: markedCookie }));
    expect(JSON.stringify(await issues.json())).not.toContain("Acme");
    const found = await findAcrossRoute.GET(
      request("GET", `/api/watches/find?q=${MESSAGE}`, { cookie: markedCookie }),
    );
    expect(found.status).toBe(404);
    const watch = await watchRoute.GET(
      request("GET", `/api/watches/${A}`, { cookie: markedCookie }),
      ctx(hook),
    );
    expect(await watch.json()).toEqual({ watch: null });
    const resolve = await issueRoute.POST(
      request(
        "POST",
        `/api/issues/${kept.issue}`,
        json({ action: "resolve", name: "Mallory", note: "" }, markedCookie),
      ),
      ctx({ issueId: kept.issue }),
    );
    expect(resolve.status).toBe(404);

    const destinations = await destinationsRoute.GET(
      request("GET", `/api/alerts/destinations?app=${applicationId(FIRST)}`, { cookie: markedCookie }),
    );
    expect(destinations.status).toBe(401);
    const error = await errorOf(destinations);
    expect(error.code).toBe("key_rejected");
    expect(error.message).toMatch(
      /Replace its key on the Applications page; your other applications still work/,
    );
    expect(clearsCookie(destinations)).toBe(false);
    expect(await snapshot()).toBe(before);
  });
});

describe("the table", () => {
  it("names every route of the console's API, or says why it needs no refusal", () => {
    const root = path.join(process.cwd(), "app/api");
    const routes: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(path.join(dir, entry.name));
        else if (entry.name === "route.ts") routes.push(path.relative(root, dir).split(path.sep).join("/"));
      }
    };
    walk(root);
    const covered = new Set([
      ...STORE_ROUTES.map(([name]) => name.split(" ")[0]!),
      ...Object.keys(OTHER_ROUTES),
    ]);
    expect(routes.filter((route) => !covered.has(route)).sort()).toEqual([]);
  });
});
