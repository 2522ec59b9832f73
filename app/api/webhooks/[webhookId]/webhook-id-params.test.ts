/**
 * Every route with `[webhookId]` or `[logId]` takes the ID in any case and with spaces around it
 * (as a person pastes it), and asks the hub with the lowercase ID.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { fakeLogPage, fakeWebhook, sendJson } from "@/tests/support/fake-upstream";
import { request, errorOf, ctx, fakeHubForRoutes, signedInCookie } from "@/tests/support/route-requests";
import { closeSharedStore } from "@/lib/server/store/context";
import * as webhookRoute from "@/app/api/webhooks/[webhookId]/route";
import * as logsRoute from "@/app/api/webhooks/[webhookId]/logs/route";
import * as retryRoute from "@/app/api/webhooks/[webhookId]/logs/[logId]/retry/route";
import * as findRoute from "@/app/api/webhooks/[webhookId]/history/find/route";
import * as healthRoute from "@/app/api/webhooks/[webhookId]/history/health/route";
import * as bundleRoute from "@/app/api/webhooks/[webhookId]/bundle/route";
import * as lastSuccessRoute from "@/app/api/webhooks/[webhookId]/logs/[logId]/last-success/route";
import * as watchRoute from "@/app/api/watches/[webhookId]/route";
import * as alertRulesRoute from "@/app/api/watches/[webhookId]/alert-rules/route";
import * as issueRoute from "@/app/api/issues/[issueId]/route";
import * as destinationRoute from "@/app/api/alerts/destinations/[destinationId]/route";

const KEY = "webhook-id-route-key-0123456789";
const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
const LOG = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
const TYPED = [WEBHOOK.toUpperCase(), `  ${WEBHOOK} `, ` ${WEBHOOK.toUpperCase()}\n`];

const fake = fakeHubForRoutes((req, res) => {
  if (!req.url?.includes(`/webhook/${WEBHOOK}`)) return sendJson(res, 404, { message: "Not found" });
  if (req.url.includes("/webhook-log")) return sendJson(res, 200, fakeLogPage(WEBHOOK));
  return sendJson(res, 200, fakeWebhook(WEBHOOK));
});
let cookie: string;

beforeEach(async () => {
  await closeSharedStore();
  cookie = await signedInCookie(KEY);
  fake.requests.length = 0;
});

const get = (path: string) => request("GET", path, { cookie });

describe("webhook and log IDs in any case", () => {
  it.each(TYPED)("GET /api/webhooks/%j answers the webhook, asked lowercase", async (typed) => {
    const response = await webhookRoute.GET(get("/api/webhooks/x"), ctx({ webhookId: typed }));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { id: string }).id).toBe(WEBHOOK);
    expect(fake.requests.map((r) => r.url)).toEqual([`/v1/organization/webhook/${WEBHOOK}`]);
  });

  it.each(TYPED)("GET /api/webhooks/%j/logs answers its logs", async (typed) => {
    const response = await logsRoute.GET(get("/api/webhooks/x/logs"), ctx({ webhookId: typed }));
    expect(response.status).toBe(200);
    expect(fake.requests[0]!.url).toContain(`/webhook/${WEBHOOK}/webhook-log`);
  });

  it("POST …/logs/{logId}/retry takes both IDs in any case (and answers that retry is not offered yet)", async () => {
    const response = await retryRoute.POST(
      request("POST", "/api/webhooks/x/logs/y/retry", { cookie }),
      ctx({ webhookId: ` ${WEBHOOK.toUpperCase()}`, logId: `${LOG.toUpperCase()} ` }),
    );
    expect(response.status).toBe(501);
  });

  it("GET …/history/find finds a link typed in capitals", async () => {
    const q = encodeURIComponent(` /webhooks/${WEBHOOK.toUpperCase()}?log=${LOG.toUpperCase()} `);
    const response = await findRoute.GET(
      get(`/api/webhooks/x/history/find?q=${q}`),
      ctx({ webhookId: WEBHOOK.toUpperCase() }),
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { log: { id: string } }).log.id).toBe(LOG);
  });

  it("Find refuses more than 2,048 characters with the cap, and asks nothing", async () => {
    const q = encodeURIComponent(`/webhooks/${WEBHOOK}?log=${LOG}&pad=${"x".repeat(2048)}`);
    const response = await findRoute.GET(
      get(`/api/webhooks/x/history/find?q=${q}`),
      ctx({ webhookId: WEBHOOK }),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(
      /^Find a delivery: shorten it to 2,048 characters or fewer/,
    );
    expect(fake.requests).toHaveLength(0);
  });
});

/** What an address with no ID where one belongs is told: the field's label, what it is not, and what one looks like. */
const notValid = (label: string, noun: string) =>
  `${label}: not a valid ${noun}, which is a UUID such as 3f2b6c1e-8d4a-4f0b-9c2d-1a2b3c4d5e6f. ` +
  "Check the link, or copy it again from the console.";

describe("an ID in an API address that is no ID", () => {
  const BAD = ["not-a-uuid", "12345", `${WEBHOOK}0`, `${WEBHOOK.slice(0, -1)}g`, "", "..", "%00"];
  const ROUTES = [
    ["GET /api/webhooks/{id}", () => webhookRoute.GET, "GET", "webhookId"],
    ["GET …/logs", () => logsRoute.GET, "GET", "webhookId"],
    ["GET …/history/health", () => healthRoute.GET, "GET", "webhookId"],
    ["GET …/history/find", () => findRoute.GET, "GET", "webhookId"],
    ["GET …/bundle", () => bundleRoute.GET, "GET", "webhookId"],
    ["GET /api/watches/{id}", () => watchRoute.GET, "GET", "webhookId"],
    ["DELETE /api/watches/{id}", () => watchRoute.DELETE, "DELETE", "webhookId"],
    ["GET /api/watches/{id}/alert-rules", () => alertRulesRoute.GET, "GET", "webhookId"],
  ] as const;

  describe.each(ROUTES)("%s", (_name, route, method, param) => {
    it.each(BAD)(
      "%j: 400 saying it is not a valid webhook ID and what one looks like; nothing upstream",
      async (bad) => {
        const response = await route()(request(method, "/api/x", { cookie }), ctx({ [param]: bad }));
        expect(response.status).toBe(400);
        const error = await errorOf(response);
        expect(error.message).toBe(notValid("Webhook ID", "webhook ID"));
        expect(error.fields).toEqual({ webhookId: [notValid("Webhook ID", "webhook ID")] });
        expect(fake.requests).toHaveLength(0);
      },
    );
  });

  it.each([
    [
      "a log ID",
      () => lastSuccessRoute.GET,
      "GET",
      { webhookId: WEBHOOK, logId: "nope" },
      "logId",
      notValid("Log ID", "log ID"),
    ],
    [
      "a retried log's ID",
      () => retryRoute.POST,
      "POST",
      { webhookId: WEBHOOK, logId: "nope" },
      "logId",
      notValid("Log ID", "log ID"),
    ],
    [
      "a failure issue's ID",
      () => issueRoute.POST,
      "POST",
      { issueId: "nope" },
      "issueId",
      notValid("Issue ID", "failure issue ID"),
    ],
    [
      "a destination's ID",
      () => destinationRoute.DELETE,
      "DELETE",
      { destinationId: "nope" },
      "destinationId",
      notValid("Destination ID", "destination ID"),
    ],
  ] as const)(
    "%s: the same words, by its own label",
    async (_what, route, method, params, field, message) => {
      const response = await route()(
        request(method, "/api/x", method === "GET" ? { cookie } : { cookie, body: {} }),
        ctx(params),
      );
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.fields?.[field]).toEqual([message]);
      expect(fake.requests).toHaveLength(0);
    },
  );
});
