import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { OverviewRow } from "@/lib/domain/watch/overview";
import { OverviewTable } from "@/components/overview/overview-table";

const NOW = Date.parse("2026-11-25T12:00:00.000Z");

function row(
  failingStreak: OverviewRow["failingStreak"],
  maintenance: OverviewRow["maintenance"] = null,
): OverviewRow {
  return {
    webhookId: "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d",
    appId: "0123456789abcdef",
    name: "Busy shop",
    endpoint: "https://shop.example/hooks",
    active: true,
    numberOfErrors: 40,
    errorsChange: 3,
    hours: { from: new Date(NOW).toISOString(), success: [], failed: [] },
    attempts24h: 20,
    failed24h: 20,
    successRate24h: 0,
    failingStreak,
    lastSuccess: null,
    lastFailure: null,
    asOf: new Date(NOW).toISOString(),
    pollError: null,
    keyRejected: false,
    maintenance,
  };
}

const markupOf = (rows: OverviewRow[]) =>
  renderToStaticMarkup(createElement(OverviewTable, { rows, applications: [], now: NOW, local: false }));

/** The "Failing since" cell's text (the server renders times in UTC until the browser mounts). */
function failingSince(
  streak: OverviewRow["failingStreak"],
  maintenance: OverviewRow["maintenance"] = null,
): string {
  const cell =
    /<td data-label="Failing since">(.*?)<\/td>/.exec(markupOf([row(streak, maintenance)]))?.[1] ?? "";
  return cell.replace(/<[^>]+>/g, "");
}

describe("OverviewTable's Failing since", () => {
  const since = "2026-11-23T19:54:00.000Z";

  it("names the streak's start, with its date when not today, in UTC until the browser mounts", () => {
    expect(failingSince({ since, length: 20, atLeast: false })).toBe(
      "since 23 Nov, 19:54 UTC20 failures in a row",
    );
    expect(failingSince({ since: "2026-11-25T09:12:00.000Z", length: 2, atLeast: false })).toBe(
      "since 09:12 UTC2 failures in a row",
    );
  });

  it("says 'since before' when the streak reaches further back than the watch holds", () => {
    expect(failingSince({ since, length: 20, atLeast: true })).toBe(
      "since before 23 Nov, 19:54 UTCat least 20 failures in a row",
    );
  });
});

describe("OverviewTable's maintenance marker", () => {
  const streak = { since: "2026-11-25T09:12:00.000Z", length: 12, atLeast: false };

  it("a webhook failing in a maintenance window says until when and its failures there, not its streak, and is not shown failing", () => {
    const maintenance = { until: "2026-11-25T14:00:00.000Z", next: null, failures: 12 };
    expect(failingSince(streak, maintenance)).toBe(
      "In maintenance until 14:00 UTC12 failures in maintenance",
    );
    expect(markupOf([row(streak, maintenance)])).not.toContain("bg-red-50");
    expect(markupOf([row(streak)])).toContain("bg-red-50");
  });

  it("says when the next window starts, within a day, and nothing further ahead", () => {
    expect(failingSince(null, { until: null, next: "2026-11-25T15:30:00.000Z", failures: 0 })).toBe(
      "Not failingMaintenance at 15:30 UTC",
    );
    expect(failingSince(null, { until: null, next: "2026-11-28T15:30:00.000Z", failures: 0 })).toBe(
      "Not failing",
    );
  });
});
