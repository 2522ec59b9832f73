import { describe, expect, it } from "vitest";
import { historySourceText, sourceInHeader, type HistorySource } from "@/lib/domain/history/answer-source";

describe("what a history answer covers", () => {
  const asOf = "2026-11-28T12:00:00.000Z";
  const source: HistorySource = { asOf, watched: true, logs: 1204, complete: true, cutBodies: 0 };

  it("is said for a person: whose copy, how fresh, how much of the history", () => {
    const later = Date.parse(asOf) + 12_000;
    expect(historySourceText(source, later)).toBe("From the watch, as of 12 s ago; all 1,204 deliveries");
    expect(historySourceText({ ...source, watched: false, logs: 20_000, complete: false }, later)).toBe(
      "From the console's copy, as of 12 s ago; the 20,000 most recent deliveries",
    );
    expect(historySourceText({ ...source, logs: 1 }, later)).toBe(
      "From the watch, as of 12 s ago; all 1 delivery",
    );
  });

  it("says when an answer is not exact, and why", () => {
    expect(historySourceText({ ...source, cutBodies: 2 }, Date.parse(asOf))).toMatch(
      /; not exact: 2 responses are longer than the copy keeps \(WATCH_BODY_CAP_BYTES\)/,
    );
  });

  it("is read back from an export's header, and nothing else is", () => {
    expect(sourceInHeader(JSON.stringify(source))).toEqual(source);
    expect(sourceInHeader(null)).toBeNull();
    expect(sourceInHeader("watch; as-of=yesterday")).toBeNull();
    expect(sourceInHeader(JSON.stringify({ ...source, asOf: "yesterday" }))).toBeNull();
  });
});
