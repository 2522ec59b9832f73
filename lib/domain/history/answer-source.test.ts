import { describe, expect, it } from "vitest";
import {
  historySourceHeader,
  historySourceText,
  watchAsOfInHeader,
} from "@/lib/domain/history/answer-source";

describe("the history source", () => {
  const asOf = "2026-11-28T12:00:00.000Z";

  it("is said for a person, with the store's age", () => {
    expect(historySourceText({ from: "watch", asOf }, Date.parse(asOf) + 12_000)).toBe(
      "From the watch, as of 12 s ago",
    );
    expect(historySourceText({ from: "scan", why: "this webhook is not watched." }, 0)).toBe(
      "Scanned from the hub: this webhook is not watched.",
    );
  });

  it("is read back from an export's header: the store's time, or null for a scan", () => {
    expect(watchAsOfInHeader(historySourceHeader({ from: "watch", asOf }))).toBe(asOf);
    expect(watchAsOfInHeader(historySourceHeader({ from: "scan", why: "any" }))).toBeNull();
    expect(watchAsOfInHeader(null)).toBeNull();
    expect(watchAsOfInHeader("watch; as-of=yesterday")).toBeNull();
  });
});
