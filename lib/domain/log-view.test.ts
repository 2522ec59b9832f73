import { describe, expect, it } from "vitest";
import {
  apiQueryString,
  historyScanPath,
  isHistoryView,
  toApiQuery,
  webhookViewHref,
} from "@/lib/domain/log-view";
import { DEFAULT_LOG_VIEW, loadLogView } from "@/lib/domain/search-params";
import { isUuidShape } from "@/lib/domain/api-limits";

const LOG = "0b7d4c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e";

describe("links and API queries", () => {
  it("builds a webhook view href, its application first", () => {
    expect(webhookViewHref("abc")).toBe("/webhooks/abc");
    expect(webhookViewHref("abc", { app: "0123456789abcdef", status: "Failed" })).toBe(
      "/webhooks/abc?app=0123456789abcdef&status=Failed",
    );
    expect(webhookViewHref("abc", { status: "Failed", log: LOG })).toBe(
      `/webhooks/abc?status=Failed&log=${LOG}`,
    );
  });

  it("asks a scan for the history filters and the page of matches", () => {
    const view = loadLogView(
      new URLSearchParams("code=%205xx%20&since=2026-01-01T02:00:00Z&until=&contains=Time%20out&cap=40000"),
    );
    expect(isHistoryView(view)).toBe(true);
    expect(isHistoryView(DEFAULT_LOG_VIEW)).toBe(false);
    expect(historyScanPath(LOG, { ...view, page: 3, limit: 10 })).toBe(
      `/api/webhooks/${LOG}/history?code=5xx&since=2026-01-01T02%3A00%3A00Z&contains=Time+out&cap=40000&offset=20&limit=10`,
    );
  });

  it("asks the history route for a failure issue's deliveries, and links to them", () => {
    const view = loadLogView({ status: "Failed", issue: LOG });
    expect(isHistoryView(view)).toBe(true);
    expect(historyScanPath(LOG, view)).toBe(
      `/api/webhooks/${LOG}/history?status=Failed&issue=${LOG}&offset=0&limit=20`,
    );
    expect(webhookViewHref("abc", { app: "0123456789abcdef", status: "Failed", issue: LOG })).toBe(
      `/webhooks/abc?app=0123456789abcdef&status=Failed&issue=${LOG}`,
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
