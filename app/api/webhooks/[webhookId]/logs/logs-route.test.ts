/**
 * GET /api/webhooks/{id}/logs, called directly against a fake hub: what goes upstream, the 400s
 * that send nothing, and identical reads from several sessions of one key sharing a hub call.
 */
import { describe, expect, it } from "vitest";
import { fakeLogPage, sendJson } from "@/tests/support/fake-upstream";
import {
  ctx,
  errorOf,
  fakeHubForRoutes,
  request,
  signedInCookie,
  WEBHOOK,
} from "@/tests/support/route-requests";
import * as logsRoute from "@/app/api/webhooks/[webhookId]/logs/route";

const upstream = fakeHubForRoutes();

describe("GET /api/webhooks/{id}/logs", () => {
  it("answers { data, pagination } and passes offset, limit and status upstream", async () => {
    upstream.handle = (_req, res) => sendJson(res, 200, fakeLogPage());
    const cookie = await signedInCookie();
    const response = await logsRoute.GET(
      request("GET", `/api/webhooks/${WEBHOOK}/logs?offset=40&limit=20&status=Failed`, { cookie }),
      ctx({ webhookId: WEBHOOK }),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual(fakeLogPage());
    expect(upstream.requests[0]!.url).toBe(
      `/v1/organization/webhook/${WEBHOOK}/webhook-log?offset=40&limit=20&status=Failed`,
    );
  });

  it("applies the spec's defaults (offset 0, limit 20)", async () => {
    upstream.handle = (_req, res) => sendJson(res, 200, fakeLogPage());
    const cookie = await signedInCookie();
    await logsRoute.GET(
      request("GET", `/api/webhooks/${WEBHOOK}/logs`, { cookie }),
      ctx({ webhookId: WEBHOOK }),
    );
    expect(upstream.requests[0]!.url).toBe(
      `/v1/organization/webhook/${WEBHOOK}/webhook-log?offset=0&limit=20`,
    );
  });

  it.each([
    ["limit over 50", "limit=51", "limit"],
    ["limit 0", "limit=0", "limit"],
    ["negative limit", "limit=-1", "limit"],
    ["fractional limit", "limit=1.5", "limit"],
    ["non-numeric limit", "limit=abc", "limit"],
    ["infinite limit", "limit=1e999", "limit"],
    ["negative offset", "offset=-20", "offset"],
    ["huge offset", "offset=99999999999999999999", "offset"],
    ["unknown status", "status=Pending", "status"],
    ["lower-case status", "status=failed", "status"],
    ["a status that is a URL", "status=https%3A%2F%2Fevil.example", "status"],
    ["an unknown parameter", "apiKey=x", "apiKey"],
    ["a repeated parameter", "status=Failed&status=Success", "status"],
  ])("refuses %s: 400 naming the field, nothing upstream", async (_name, query, field) => {
    const cookie = await signedInCookie();
    const response = await logsRoute.GET(
      request("GET", `/api/webhooks/${WEBHOOK}/logs?${query}`, { cookie }),
      ctx({ webhookId: WEBHOOK }),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.[field]).toBeDefined();
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("identical reads from five sessions of one key", () => {
  const PATH = `/api/webhooks/${WEBHOOK}/logs?limit=20&offset=1`;
  /** The hub answers each call after `ms`, as a slow hub does while the reads pile up. */
  const answersAfter = (ms: number) => (_req: unknown, res: Parameters<typeof sendJson>[0]) =>
    void setTimeout(() => sendJson(res, 200, fakeLogPage()), ms);

  async function sessions(): Promise<string[]> {
    return Promise.all(Array.from({ length: 5 }, () => signedInCookie()));
  }

  function read(cookie: string): Promise<Response> {
    return logsRoute.GET(request("GET", PATH, { cookie }), ctx({ webhookId: WEBHOOK }));
  }

  /** Every read answered 200 with the same page. */
  async function expectOnePage(responses: Response[]): Promise<void> {
    expect(responses.map((r) => r.status)).toEqual(Array(responses.length).fill(200));
    const pages = await Promise.all(responses.map(async (r) => JSON.stringify(await r.json())));
    expect(new Set(pages).size).toBe(1);
  }

  it("ten sent at once make one hub call, and all get its page", async () => {
    upstream.handle = answersAfter(200);
    const cookies = await sessions();
    await expectOnePage(await Promise.all(Array.from({ length: 10 }, (_, i) => read(cookies[i % 5]!))));
    expect(upstream.requests).toHaveLength(1);
  });

  it("ten arriving in waves while the first call is out make at most two hub calls", async () => {
    upstream.handle = answersAfter(250);
    const cookies = await sessions();
    const arrived = upstream.nextRequest();
    const first = read(cookies[0]!);
    await arrived;
    const second = cookies.slice(1).map(read);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const third = cookies.map(read);
    await expectOnePage(await Promise.all([first, ...second, ...third]));
    expect(upstream.requests.length).toBeLessThanOrEqual(2);
  });
});
