import { describe, expect, it } from "vitest";
import {
  DEFAULT_LOG_VIEW,
  apiQueryString,
  historyScanPath,
  isHistoryView,
  logsQueryState,
  parseLogSearchParams,
  serializeLogSearchParams,
  toApiQuery,
  webhookViewHref,
} from "@/lib/domain/log-view";
import { isUuidShape } from "@/lib/domain/api-limits";

const LOG = "0b7d4c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e";

describe("parseLogSearchParams", () => {
  it("gives the defaults for an empty query", () => {
    expect(parseLogSearchParams(new URLSearchParams())).toEqual(DEFAULT_LOG_VIEW);
    expect(parseLogSearchParams({})).toEqual({
      ...DEFAULT_LOG_VIEW,
      status: null,
      page: 1,
      limit: 20,
      log: null,
    });
  });

  it("reads every field from URLSearchParams and from Next's searchParams object", () => {
    const expected = { ...DEFAULT_LOG_VIEW, status: "Failed", page: 3, limit: 50, log: LOG };
    expect(parseLogSearchParams(new URLSearchParams(`status=Failed&page=3&limit=50&log=${LOG}`))).toEqual(
      expected,
    );
    expect(parseLogSearchParams({ status: "Failed", page: "3", limit: "50", log: LOG })).toEqual(expected);
  });

  it("reads the history filters as typed, trimmed, and a cap", () => {
    const view = parseLogSearchParams(
      new URLSearchParams("code=%205xx%20&since=2026-01-01T02:00:00Z&until=&contains=Time%20out&cap=40000"),
    );
    expect(view).toMatchObject({
      code: "5xx",
      since: "2026-01-01T02:00:00Z",
      until: null,
      contains: "Time out",
      cap: 40000,
    });
    expect(isHistoryView(view)).toBe(true);
    expect(isHistoryView(DEFAULT_LOG_VIEW)).toBe(false);
    expect(historyScanPath(LOG, { ...view, page: 3, limit: 10 })).toBe(
      `/api/webhooks/${LOG}/history?code=5xx&since=2026-01-01T02%3A00%3A00Z&contains=Time+out&cap=40000&offset=20&limit=10`,
    );
  });

  it("takes the first of repeated params", () => {
    expect(parseLogSearchParams({ page: ["2", "9"], status: ["Success", "Failed"] })).toMatchObject({
      page: 2,
      status: "Success",
    });
  });

  it("accepts the status in any case", () => {
    expect(parseLogSearchParams({ status: "failed" }).status).toBe("Failed");
    expect(parseLogSearchParams({ status: "SUCCESS" }).status).toBe("Success");
  });

  it.each([
    ["status", "Pending", "status", null],
    ["status", "", "status", null],
    ["page", "0", "page", 1],
    ["page", "-2", "page", 1],
    ["page", "2.5", "page", 1],
    ["page", "abc", "page", 1],
    ["page", "1e3", "page", 1],
    ["page", "99999999", "page", 1],
    ["limit", "30", "limit", 20],
    ["limit", "500", "limit", 20],
    ["limit", "ten", "limit", 20],
    ["log", "not-a-uuid", "log", null],
    ["log", `${LOG}x`, "log", null],
  ])("falls back to the default for %s=%s", (name, value, field, expected) => {
    expect(parseLogSearchParams({ [name]: value })[field as keyof typeof DEFAULT_LOG_VIEW]).toBe(expected);
  });

  it("accepts every page size the UI offers", () => {
    for (const limit of [10, 20, 50])
      expect(parseLogSearchParams({ limit: String(limit) }).limit).toBe(limit);
  });
});

describe("serializeLogSearchParams", () => {
  it("leaves defaults out", () => {
    expect(serializeLogSearchParams(DEFAULT_LOG_VIEW)).toBe("");
  });

  it("writes a fixed order", () => {
    expect(
      serializeLogSearchParams({ ...DEFAULT_LOG_VIEW, log: LOG, limit: 10, page: 4, status: "Success" }),
    ).toBe(`status=Success&page=4&limit=10&log=${LOG}`);
  });

  it("round-trips through parse", () => {
    const states = [
      DEFAULT_LOG_VIEW,
      { ...DEFAULT_LOG_VIEW, status: "Failed" as const, page: 7, limit: 50 as const },
      { ...DEFAULT_LOG_VIEW, limit: 10 as const, log: LOG },
      {
        ...DEFAULT_LOG_VIEW,
        status: "Failed" as const,
        code: "5xx",
        since: "2026-01-01T02:00:00Z",
        contains: "timeout",
        cap: 40000,
      },
    ];
    for (const state of states) {
      expect(parseLogSearchParams(new URLSearchParams(serializeLogSearchParams(state)))).toEqual(state);
    }
  });
});

describe("links and API queries", () => {
  it("builds a webhook view href, its application first", () => {
    expect(webhookViewHref("abc")).toBe("/webhooks/abc");
    expect(webhookViewHref("abc", { app: "0123456789abcdef", status: "Failed" })).toBe(
      "/webhooks/abc?app=0123456789abcdef&status=Failed",
    );
    expect(parseLogSearchParams({ app: "0123456789abcdef" }).app).toBe("0123456789abcdef");
    for (const bad of ["0123456789ABCDEF", "0123", "mh_live_key", ""])
      expect(parseLogSearchParams({ app: bad }).app).toBeNull();
    expect(webhookViewHref("abc", { status: "Failed", log: LOG })).toBe(
      `/webhooks/abc?status=Failed&log=${LOG}`,
    );
  });

  it("keeps the open log out of the logs query key", () => {
    expect(logsQueryState({ ...DEFAULT_LOG_VIEW, page: 2, log: LOG, app: "0123456789abcdef" })).toBe(
      "page=2",
    );
  });

  it("turns a page into offset and limit", () => {
    expect(toApiQuery({ status: null, page: 1, limit: 20 })).toEqual({ offset: 0, limit: 20 });
    expect(toApiQuery({ status: "Failed", page: 3, limit: 50 })).toEqual({
      offset: 100,
      limit: 50,
      status: "Failed",
    });
    expect(apiQueryString(toApiQuery({ status: "Success", page: 2, limit: 10 }))).toBe(
      "offset=10&limit=10&status=Success",
    );
  });

  it("checks the UUID shape like the server does", () => {
    expect(isUuidShape(LOG)).toBe(true);
    expect(isUuidShape(LOG.toUpperCase())).toBe(true);
    expect(isUuidShape("0b7d4c1e2f3a4b5c8d9e0f1a2b3c4d5e")).toBe(false);
    expect(isUuidShape(` ${LOG}`)).toBe(false);
  });
});
