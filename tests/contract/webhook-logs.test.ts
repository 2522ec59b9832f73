/**
 * Contract: the webhook and its logs (spec parts 2, 3, 4.2, 4.3, 8). Each test names the part it checks.
 * Runs against the in-process sandbox, or any API (see target.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOG_LIMIT_DEFAULT, LOG_LIMIT_MAX } from "../../lib/domain/api-limits";
import {
  webhookLogPageSchema,
  webhookLogSchema,
  webhookSchema,
  type WebhookLogPage,
} from "../../lib/domain/hub-schemas";
import { setUpTarget, type ContractTarget } from "./target";

let target: ContractTarget;

beforeAll(async () => {
  target = await setUpTarget();
});
afterAll(() => target.close());

const page = (query: Record<string, string | number> = {}) => target.api.logPage(target.webhookId, query);

const ids = (p: WebhookLogPage) => p.data.map((log) => log.id);

describe("spec part 4.3 and 2: the webhook", () => {
  it("§4.3 GET /v1/organization/webhook/{id} answers the webhook object with id, endpoint, eventType, numberOfErrors, active", async () => {
    const answer = await target.api.getWebhook(target.webhookId);
    expect(answer.status).toBe(200);
    const webhook = webhookSchema.parse(answer.body);
    expect(webhook.id).toBe(target.webhookId);
    expect(() => new URL(webhook.endpoint)).not.toThrow();
  });

  it("§2 numberOfErrors is the count of Failed logs recorded for the webhook", async () => {
    const webhook = webhookSchema.parse((await target.api.getWebhook(target.webhookId)).body);
    const failed = await page({ status: "Failed", limit: 1 });
    expect(webhook.numberOfErrors).toBe(failed.pagination.total);
  });
});

describe("spec part 4.2 and 2: the list of webhook logs", () => {
  it("§4.2 the answer is { data: [webhook log], pagination: { offset, limit, total, totalPages } }", async () => {
    const answer = await target.api.listLogs(target.webhookId);
    expect(answer.status).toBe(200);
    webhookLogPageSchema.parse(answer.body);
  });

  it("§2 every webhook log has id, webhookId, statusCode, responseBody, status, sendAt, createdDate, messageId and the webhook summary", async () => {
    const { data } = await page({ limit: LOG_LIMIT_MAX });
    expect(data.length).toBeGreaterThan(0);
    for (const log of data) {
      webhookLogSchema.parse(log);
      expect(log.webhookId).toBe(target.webhookId);
      expect(log.webhook.id).toBe(target.webhookId);
      expect(Number.isNaN(Date.parse(log.sendAt)), log.sendAt).toBe(false);
      expect(Number.isNaN(Date.parse(log.createdDate)), log.createdDate).toBe(false);
    }
  });

  it("§3 a log is Success exactly when the endpoint answered 2xx, else Failed", async () => {
    const { data } = await page({ limit: LOG_LIMIT_MAX });
    for (const log of data) {
      const twoHundreds = log.statusCode >= 200 && log.statusCode < 300;
      expect(log.status, `log ${log.id} has statusCode ${log.statusCode}`).toBe(
        twoHundreds ? "Success" : "Failed",
      );
    }
  });

  it("§4.2 limit defaults to 20", async () => {
    const p = await page();
    expect(p.pagination.limit).toBe(LOG_LIMIT_DEFAULT);
    expect(p.data.length).toBe(Math.min(LOG_LIMIT_DEFAULT, p.pagination.total));
  });

  it("§4.2 offset defaults to 0", async () => {
    const implicit = await page({ limit: 5 });
    const explicit = await page({ limit: 5, offset: 0 });
    expect(implicit.pagination.offset).toBe(0);
    expect(ids(implicit)).toEqual(ids(explicit));
  });

  it("§4.2 limit may be 50 (the maximum)", async () => {
    const p = await page({ limit: LOG_LIMIT_MAX });
    expect(p.pagination.limit).toBe(LOG_LIMIT_MAX);
    expect(p.data.length).toBe(Math.min(LOG_LIMIT_MAX, p.pagination.total));
  });

  it("§4.2 / §8 limit may not exceed 50: a larger limit is refused (or at least never honoured)", async () => {
    const answer = await target.api.listLogs(target.webhookId, { limit: LOG_LIMIT_MAX + 1 });
    if (target.mode === "sandbox") {
      expect(answer.status).toBe(400);
      return;
    }
    if (answer.status >= 400 && answer.status < 500) return;
    expect(answer.status).toBe(200);
    const p = webhookLogPageSchema.parse(answer.body);
    expect(p.data.length).toBeLessThanOrEqual(LOG_LIMIT_MAX);
  });

  it("§4.2 offset is the starting position: offset k shows the logs from position k on", async (ctx) => {
    const all = await page({ limit: 12 });
    ctx.skip(all.data.length < 4, "the webhook needs at least 4 logs");
    const shifted = await page({ offset: 3, limit: 5 });
    expect(shifted.pagination.offset).toBe(3);
    expect(ids(shifted)).toEqual(ids(all).slice(3, 8));
  });

  it("§4.2 status=Success restricts the results to Success logs", async () => {
    const p = await page({ status: "Success", limit: LOG_LIMIT_MAX });
    expect(p.data.every((log) => log.status === "Success")).toBe(true);
    expect(p.data.length).toBe(Math.min(LOG_LIMIT_MAX, p.pagination.total));
  });

  it("§4.2 status=Failed restricts the results to Failed logs", async () => {
    const p = await page({ status: "Failed", limit: LOG_LIMIT_MAX });
    expect(p.data.every((log) => log.status === "Failed")).toBe(true);
    expect(p.data.length).toBe(Math.min(LOG_LIMIT_MAX, p.pagination.total));
  });

  it("§4.2 without status there is no filter: its total is the Success total plus the Failed total", async () => {
    const [all, success, failed] = await Promise.all([
      page({ limit: 1 }),
      page({ status: "Success", limit: 1 }),
      page({ status: "Failed", limit: 1 }),
    ]);
    expect(all.pagination.total).toBe(success.pagination.total + failed.pagination.total);
    if (target.mode === "sandbox")
      expect([success.pagination.total, failed.pagination.total]).toEqual([15, 10]);
  });

  it("§2 pagination: totalPages is total divided by limit, rounded up; offset and limit echo the request", async () => {
    for (const limit of [1, 7, 20, 50]) {
      const p = await page({ limit, offset: 2 });
      expect(p.pagination).toMatchObject({
        offset: 2,
        limit,
        totalPages: Math.ceil(p.pagination.total / limit),
      });
    }
  });

  it("§4.2 logs come newest first (by createdDate), across pages too", async () => {
    const first = await page({ limit: 10 });
    const second = await page({ limit: 10, offset: 10 });
    const times = [...first.data, ...second.data].map((log) => Date.parse(log.createdDate));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("§4.2 paging with offset and limit visits every log exactly once", async (ctx) => {
    const { pagination } = await page({ limit: 1 });
    ctx.skip(pagination.total > 500, "more than 500 logs: too many to page through in a test");
    const seen: string[] = [];
    for (let offset = 0; offset < pagination.total; offset += 7)
      seen.push(...ids(await page({ offset, limit: 7 })));
    expect(seen).toHaveLength(pagination.total);
    expect(new Set(seen).size).toBe(pagination.total);
  });
});
