import { describe, expect, it } from "vitest";
import { WATCH_NAME_MAX, bulkSummary, parseBulkInput, type BulkOutcome } from "@/lib/domain/watch/bulk-input";
import type { OverviewRow } from "@/lib/domain/watch/overview";
import { filterRows, overviewPage } from "@/lib/domain/watch/overview-page";

const A = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
const B = "1c8f6b5d-9a1f-4b6c-8d2e-3f4a5b6c7d8e";

describe("parseBulkInput", () => {
  it("reads IDs one per line and a CSV of id,name, skipping blank lines and a header", () => {
    const text = `id,name\n${A}\n\n  ${B.toUpperCase()} , "Acme, Inc." \n`;
    expect(parseBulkInput(text)).toEqual([
      { line: 2, ok: true, webhookId: A, name: "" },
      { line: 4, ok: true, webhookId: B, name: "Acme, Inc." },
    ]);
  });

  it("reports each bad line with its number and why, and keeps the good ones", () => {
    const lines = parseBulkInput(
      `${A},First\nnot-an-id,Second\n${A},Again\n${B},${"x".repeat(WATCH_NAME_MAX + 1)}`,
    );
    expect(lines.map((line) => (line.ok ? line.line : `${line.line}: ${line.problem}`))).toEqual([
      1,
      "2: is not a webhook ID (a UUID, 8-4-4-4-12 hex digits)",
      "3: repeats the webhook of line 1",
      `4: has a name over ${WATCH_NAME_MAX} characters`,
    ]);
  });

  it("a quote inside a quoted name is doubled", () => {
    expect(parseBulkInput(`${A},"The ""Big"" One"`)).toEqual([
      { line: 1, ok: true, webhookId: A, name: 'The "Big" One' },
    ]);
  });
});

function row(name: string, overrides: Partial<OverviewRow> = {}): OverviewRow {
  return {
    webhookId: `00000000-0000-4000-8000-${String(name.length).padStart(12, "0")}`,
    appId: "0123456789abcdef",
    name,
    endpoint: `https://${name.toLowerCase()}.example/hook`,
    active: true,
    numberOfErrors: 0,
    errorsChange: 0,
    hours: { from: "2026-11-24T07:00:00.000Z", success: [], failed: [] },
    attempts24h: 10,
    failed24h: 0,
    successRate24h: 100,
    failingStreak: null,
    lastSuccess: null,
    lastFailure: null,
    asOf: "2026-11-25T06:00:00Z",
    pollError: null,
    keyRejected: false,
    maintenance: null,
    ...overrides,
  };
}

describe("the summary of a paste", () => {
  const outcome = (status: BulkOutcome["status"], renamedFrom?: string): BulkOutcome => ({
    line: 1,
    text: "x",
    status,
    message: "",
    ...(renamedFrom === undefined ? {} : { renamedFrom }),
  });

  it("counts what was watched before apart from what is watched now, and says how many were renamed", () => {
    expect(bulkSummary([outcome("already", "Old"), outcome("already", "Older")])).toBe(
      "0 newly watched, 2 already watched (2 renamed), 0 refused",
    );
    expect(bulkSummary([outcome("watched"), outcome("already"), outcome("refused")])).toBe(
      "1 newly watched, 1 already watched, 1 refused",
    );
  });
});

describe("the overview's filters", () => {
  const healthy = row("Healthy");
  const failing = row("Failing long", {
    failingStreak: { since: "2026-11-20T00:00:00Z", length: 12, atLeast: false },
  });
  const staging = row("Staging one", { appId: "fedcba9876543210" });

  it("filters failing only, one application, and text over names and endpoints", () => {
    const rows = [healthy, failing, staging];
    const none = { failing: false, app: null, q: "" };
    expect(filterRows(rows, none)).toEqual(rows);
    expect(filterRows(rows, { ...none, failing: true })).toEqual([failing]);
    expect(filterRows(rows, { ...none, app: "fedcba9876543210" })).toEqual([staging]);
    expect(filterRows(rows, { ...none, q: " HEALTHY.example " })).toEqual([healthy]);
    expect(filterRows(rows, { ...none, q: "long" })).toEqual([failing]);
    expect(filterRows(rows, { failing: true, app: "fedcba9876543210", q: "" })).toEqual([]);
  });
});

describe("a page of the overview", () => {
  const rows = Array.from({ length: 7 }, (_, i) =>
    row(
      `Customer ${i + 1}`,
      i % 2 ? {} : { failingStreak: { since: "2026-11-20T00:00:00Z", length: 1, atLeast: false } },
    ),
  );
  const view = { failing: false, app: null, q: "", page: 1 };
  const names = (answer: ReturnType<typeof overviewPage>) => answer.rows.map((r) => r.name);

  it("cuts the rows the filters leave into pages, keeping their order", () => {
    const first = overviewPage(rows, view, 3);
    expect(names(first)).toEqual(["Customer 1", "Customer 2", "Customer 3"]);
    expect(first.page).toEqual({ number: 1, count: 3, size: 3 });
    expect(first.watched).toBe(7);
    expect(first.matching).toEqual(rows.map((r) => r.webhookId));
    expect(names(overviewPage(rows, { ...view, page: 3 }, 3))).toEqual(["Customer 7"]);

    const failing = overviewPage(rows, { ...view, failing: true, page: 2 }, 3);
    expect(names(failing)).toEqual(["Customer 7"]);
    expect(failing.matching).toHaveLength(4);
    expect(failing.page).toEqual({ number: 2, count: 2, size: 3 });
  });

  it("answers a page past the end with the last one, and a page below one with the first", () => {
    expect(overviewPage(rows, { ...view, page: 9 }, 3).page.number).toBe(3);
    expect(overviewPage(rows, { ...view, page: 0 }, 3).page.number).toBe(1);
    expect(overviewPage(rows, { ...view, page: -2 }, 3).page.number).toBe(1);
    const none = overviewPage(rows, { ...view, q: "nobody", page: 4 }, 3);
    expect(none).toMatchObject({ rows: [], matching: [], watched: 7, page: { number: 1, count: 1 } });
  });
});
