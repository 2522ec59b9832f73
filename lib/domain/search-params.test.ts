import { describe, expect, it } from "vitest";
import {
  DEFAULT_LOG_VIEW,
  NO_HISTORY_FILTERS,
  ignoredParams,
  inViewOrder,
  unknownIssueParam,
  loadLogView,
  serializeLogView,
  type LogViewState,
} from "@/lib/domain/search-params";
import { BAD_VIEW_PARAMS } from "@/tests/support/bad-view-params";

const LOG = "0b7d4c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e";

describe("loadLogView", () => {
  it("gives the defaults for an empty query", () => {
    expect(loadLogView(new URLSearchParams())).toEqual(DEFAULT_LOG_VIEW);
    expect(loadLogView({})).toEqual(DEFAULT_LOG_VIEW);
  });

  it("reads every field from URLSearchParams and from Next's searchParams object", () => {
    const expected = { ...DEFAULT_LOG_VIEW, status: "Failed", page: 3, limit: 50, log: LOG };
    expect(loadLogView(new URLSearchParams(`status=Failed&page=3&limit=50&log=${LOG}`))).toEqual(expected);
    expect(loadLogView({ status: "Failed", page: "3", limit: "50", log: LOG })).toEqual(expected);
  });

  it("reads the history filters as typed, trimmed, and a cap", () => {
    expect(
      loadLogView(
        new URLSearchParams("code=%205xx%20&since=2026-01-01T02:00:00Z&until=&contains=Time%20out&cap=40000"),
      ),
    ).toMatchObject({
      code: "5xx",
      since: "2026-01-01T02:00:00Z",
      until: null,
      contains: "Time out",
      cap: 40000,
    });
  });

  it("takes the first of repeated params, and the status in any case", () => {
    expect(loadLogView({ page: ["2", "9"], status: ["Success", "Failed"] })).toMatchObject({
      page: 2,
      status: "Success",
    });
    expect(loadLogView({ status: "failed" }).status).toBe("Failed");
    expect(loadLogView({ status: "SUCCESS" }).status).toBe("Success");
  });

  it("reads the application id, and nothing else in its place", () => {
    expect(loadLogView({ app: "0123456789abcdef" }).app).toBe("0123456789abcdef");
    for (const bad of ["0123456789ABCDEF", "0123", "mh_live_key", ""])
      expect(loadLogView({ app: bad }).app).toBeNull();
  });

  it.each([
    ["status", "Pending", null],
    ["status", "", null],
    ["page", "0", 1],
    ["page", "-2", 1],
    ["page", "2.5", 1],
    ["page", "abc", 1],
    ["page", "1e3", 1],
    ["page", "99999999", 1],
    ["limit", "30", 20],
    ["limit", "500", 20],
    ["limit", "ten", 20],
    ["log", "not-a-uuid", null],
    ["log", `${LOG}x`, null],
    ["code", "-1", null],
    ["code", "9xx", null],
    ["since", "yesterday", null],
    ["until", "2026-13-45", null],
    ["contains", "x".repeat(201), null],
    ["cap", "0", null],
    ["cap", "lots", null],
    ["issue", "not-an-issue", null],
    ["issue", `${LOG}0`, null],
  ])("leaves %s=%s out of the view (its default)", (name, value, expected) => {
    expect(loadLogView({ [name]: value })[name as keyof LogViewState]).toBe(expected);
  });

  it("reads a failure issue's ID, lower-cased, and a Clear filters patch drops it", () => {
    expect(loadLogView({ issue: ` ${LOG.toUpperCase()} ` }).issue).toBe(LOG);
    expect({ ...loadLogView({ issue: LOG, code: "500" }), ...NO_HISTORY_FILTERS }).toEqual(DEFAULT_LOG_VIEW);
  });

  it("accepts every page size the UI offers", () => {
    for (const limit of [10, 20, 50]) expect(loadLogView({ limit: String(limit) }).limit).toBe(limit);
  });

  it("leaves Since out when it is after Until", () => {
    const view = loadLogView({ since: "2026-01-02T00:00:00Z", until: "2026-01-01T00:00:00Z" });
    expect(view).toMatchObject({ since: null, until: "2026-01-01T00:00:00Z" });
  });
});

describe("serializeLogView", () => {
  it("leaves defaults out", () => {
    expect(serializeLogView(DEFAULT_LOG_VIEW)).toBe("");
  });

  it("writes a fixed order", () => {
    expect(serializeLogView({ ...DEFAULT_LOG_VIEW, log: LOG, limit: 10, page: 4, status: "Success" })).toBe(
      `?status=Success&page=4&limit=10&log=${LOG}`,
    );
  });

  it("round-trips through the loader", () => {
    const states: LogViewState[] = [
      DEFAULT_LOG_VIEW,
      { ...DEFAULT_LOG_VIEW, status: "Failed", page: 7, limit: 50 },
      { ...DEFAULT_LOG_VIEW, limit: 10, log: LOG },
      {
        ...DEFAULT_LOG_VIEW,
        status: "Failed",
        code: "5xx",
        since: "2026-01-01T02:00:00Z",
        contains: "time out & 100% + more",
        cap: 40000,
      },
      { ...DEFAULT_LOG_VIEW, status: "Failed", issue: LOG },
    ];
    for (const state of states)
      expect(loadLogView(new URLSearchParams(serializeLogView(state)))).toEqual(state);
  });
});

describe("ignoredParams", () => {
  it("names each parameter the view left out, with why, in one shape", () => {
    const search = new URLSearchParams(
      `status=Bogus&page=-1&limit=30&log=nope&code=-1&since=soon&until=later&contains=${"x".repeat(201)}&issue=500&cap=0`,
    );
    const ignored = ignoredParams(search);
    expect(ignored.map(({ name, value }) => `${name}=${value}`)).toEqual([
      "status=Bogus",
      "code=-1",
      "since=soon",
      "until=later",
      `contains=${"x".repeat(201)}`,
      "issue=500",
      "cap=0",
      "page=-1",
      "limit=30",
      "log=nope",
    ]);
    expect(ignored.find(({ name }) => name === "status")?.reason).toMatch(
      /^Status must be Success or Failed/,
    );
    expect(ignored.find(({ name }) => name === "code")?.reason).toMatch(/^HTTP status must be/);
    expect(ignored.find(({ name }) => name === "issue")?.reason).toMatch(
      /^the failure issue must be an issue ID \(a UUID\).*; not filtered by it$/,
    );
    expect(ignored.find(({ name }) => name === "limit")?.reason).toBe(
      "Rows per page must be 10, 20 or 50; showing 20",
    );
  });

  it("says nothing of good values, empty ones or parameters that are not the view's", () => {
    expect(
      ignoredParams(
        new URLSearchParams(
          `status=failed&code=5xx&issue=${LOG}&page=2&limit=50&log=${LOG}&contains=&find=x&app=zz`,
        ),
      ),
    ).toEqual([]);
  });

  it("names Since when it is after Until", () => {
    expect(
      ignoredParams(new URLSearchParams("since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z")),
    ).toEqual([
      { name: "since", value: "2026-01-02T00:00:00Z", reason: "Since is after Until; not filtered by Since" },
    ]);
  });
});

describe("a link's bad parameter", () => {
  it.each(BAD_VIEW_PARAMS)("%s=%s is left out of the view, and named with why", (name, value) => {
    const search = new URLSearchParams({ [name]: value });
    expect(loadLogView(search)).toEqual(DEFAULT_LOG_VIEW);
    expect(ignoredParams(search)).toEqual([
      { name, value, reason: expect.stringMatching(/ must be | may be at most /) },
    ]);
  });
});

describe("unknownIssueParam", () => {
  it("says an issue ID the webhook has no issue for is left out, in the shape of the others", () => {
    expect(unknownIssueParam(LOG)).toEqual({
      name: "issue",
      value: LOG,
      reason: expect.stringMatching(/^this webhook has no failure issue with this ID.*; not filtered by it$/),
    });
  });
});

describe("inViewOrder", () => {
  it("puts the view's parameters in the parsers' order, whichever was set last, and keeps the others after them", () => {
    const search = new URLSearchParams("limit=10&find=x&status=Success&app=81b85f2222547b3c&page=2");
    expect(inViewOrder(search).toString()).toBe("app=81b85f2222547b3c&status=Success&page=2&limit=10&find=x");
  });
});
