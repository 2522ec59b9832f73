/**
 * Every route with `[webhookId]` or `[logId]` takes the ID in any case and with spaces around it
 * (as a person pastes it), and asks the hub with the lowercase ID.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { fakeLogPage, fakeWebhook, sendJson } from "@/tests/support/fake-upstream";
import { request, errorOf, ctx, fakeHubForRoutes, signedInCookie } from "@/tests/support/route-requests";
import { closeSharedStore } from "@/lib/server/watch/store";
import * as webhookRoute from "@/app/api/webhooks/[webhookId]/route";
import * as logsRoute from "@/app/api/webhooks/[webhookId]/logs/route";
import * as retryRoute from "@/app/api/webhooks/[webhookId]/logs/[logId]/retry/route";
import * as findRoute from "@/app/api/webhooks/[webhookId]/history/find/route";

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

  it("still refuses what is not a UUID, naming the field by its label", async () => {
    const response = await webhookRoute.GET(get("/api/webhooks/x"), ctx({ webhookId: "12345" }));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/^Webhook ID: enter a UUID/);
    expect(fake.requests).toHaveLength(0);
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
