import { describe, expect, it } from "vitest";
import {
  DIFF_MAX_CHARS,
  bodyReason,
  compareWithLastSuccess,
  comparisonSummary,
  diffBodies,
  type ComparedLog,
} from "@/lib/domain/bundle/compare";
import { parseTimeZone, spanWords, timeWords } from "@/lib/domain/bundle/time-words";
import { isVolatileValue, withoutVolatile } from "@/lib/domain/bundle/volatile";

const NOW = Date.parse("2026-11-25T10:00:00Z");

function log(statusCode: number, sendAt: string, responseBody: string): ComparedLog {
  return { id: "11111111-0000-4000-8000-000000000001", statusCode, sendAt, responseBody };
}

describe("diffBodies", () => {
  it("diffs JSON structurally: changed, added and removed keys with their paths", () => {
    const diff = diffBodies(
      JSON.stringify({ ok: true, data: { count: 2, tags: ["a", "b"] }, old: 1 }),
      JSON.stringify({ ok: false, data: { count: 2, tags: ["a"] }, error: "database connection lost" }),
    );
    expect(diff).toEqual({
      kind: "json",
      changes: [
        { path: "$.ok", kind: "changed", before: "true", after: "false", volatile: false },
        { path: "$.data.tags[1]", kind: "removed", before: '"b"', volatile: false },
        { path: "$.old", kind: "removed", before: "1", volatile: false },
        { path: "$.error", kind: "added", after: '"database connection lost"', volatile: false },
      ],
    });
  });

  it("marks ids, UUIDs and timestamps as volatile, by key or by value", () => {
    const diff = diffBodies(
      JSON.stringify({
        requestId: "abc",
        at: "2026-11-24T09:12:00Z",
        ref: "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d",
        n: 1,
      }),
      JSON.stringify({
        requestId: "def",
        at: "2026-11-25T09:12:00Z",
        ref: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
        n: 2,
      }),
    );
    expect(diff.kind).toBe("json");
    if (diff.kind !== "json") return;
    expect(diff.changes.map((c) => [c.path, c.volatile])).toEqual([
      ["$.requestId", true],
      ["$.at", true],
      ["$.ref", true],
      ["$.n", false],
    ]);
  });

  it("quotes keys that are not identifiers, so a hostile key cannot fake a path", () => {
    const diff = diffBodies('{"a.b](x)":1}', '{"a.b](x)":2}');
    expect(diff.kind === "json" && diff.changes[0]!.path).toBe('$["a.b](x)"]');
  });

  it("diffs text line by line, dimming lines that differ only in ids and times", () => {
    const diff = diffBodies(
      "OK\nrequest 0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d at 2026-11-24T09:12:00Z\nbye",
      "ERROR\nrequest 1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f at 2026-11-25T09:12:00Z\nbye",
    );
    expect(diff).toEqual({
      kind: "lines",
      lines: [
        { op: "removed", text: "OK", volatile: false },
        {
          op: "removed",
          text: "request 0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d at 2026-11-24T09:12:00Z",
          volatile: true,
        },
        { op: "added", text: "ERROR", volatile: false },
        {
          op: "added",
          text: "request 1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f at 2026-11-25T09:12:00Z",
          volatile: true,
        },
        { op: "same", text: "bye", volatile: false },
      ],
    });
  });

  it("uses a line diff when only one side is JSON, and keeps hostile text as data", () => {
    const diff = diffBodies('{"ok":true}', "<script>alert(1)</script>\n![x](https://evil.test/a.png)");
    expect(diff.kind).toBe("lines");
    expect(diff.kind === "lines" && diff.lines.map((l) => l.text)).toEqual([
      '{"ok":true}',
      "<script>alert(1)</script>",
      "![x](https://evil.test/a.png)",
    ]);
  });

  it("says identical when the bodies are, textually or structurally", () => {
    expect(diffBodies("same", "same")).toEqual({ kind: "identical" });
    expect(diffBodies('{"a":1, "b":2}', '{"b":2,"a":1}')).toEqual({ kind: "identical" });
  });

  it("refuses to diff a body over the cap and says so", () => {
    const huge = "x".repeat(DIFF_MAX_CHARS + 1);
    const diff = diffBodies("{}", huge);
    expect(diff.kind).toBe("too_large");
    expect(diff.kind === "too_large" && diff.message).toMatch(/too large to diff.*raw bodies/);
  });

  it("refuses a line diff of too many lines", () => {
    const many = Array.from({ length: 2_500 }, (_, i) => `l${i}`).join("\n");
    expect(diffBodies("a", many).kind).toBe("too_large");
  });
});

describe("volatile values", () => {
  it("recognises epoch times and long numeric ids but not small numbers or words", () => {
    expect(isVolatileValue(1764064320)).toBe(true);
    expect(isVolatileValue("1764064320123")).toBe(true);
    expect(isVolatileValue(42)).toBe(false);
    expect(isVolatileValue("database connection lost")).toBe(false);
    expect(withoutVolatile("id 123456 at 2026-11-25T10:00:00Z")).toBe("id <id> at <time>");
  });
});

describe("bodyReason", () => {
  it("reads the body's own words: message, nested error, first line", () => {
    expect(bodyReason('{"error":{"message":"database connection lost"}}')).toBe("database connection lost");
    expect(bodyReason('{"detail":"nope"}')).toBe("nope");
    expect(bodyReason("\n\nGateway Timeout\nmore")).toBe("Gateway Timeout");
    expect(bodyReason("")).toBeNull();
    expect(bodyReason("y".repeat(200))).toHaveLength(80);
  });
});

describe("the summary sentence", () => {
  it("says when it last worked and what it does since", () => {
    const failed = log(500, "2026-11-25T09:30:00Z", '{"error":"database connection lost"}');
    const success = log(200, "2026-11-24T09:12:00Z", '{"ok":true}');
    expect(comparisonSummary(failed, success, { now: NOW, timeZone: "UTC" })).toBe(
      "Worked until 09:12 yesterday with 200; this delivery then failed: 500 with 'database connection lost'.",
    );
  });

  it("says the time in the zone asked for", () => {
    const failed = log(500, "2026-11-25T09:30:00Z", "boom");
    const success = log(204, "2026-11-25T08:12:00Z", "");
    expect(comparisonSummary(failed, success, { now: NOW, timeZone: "Asia/Tokyo" })).toBe(
      "Worked until 17:12 today with 204; this delivery then failed: 500 with 'boom'.",
    );
  });

  it("says no connection for status 0 and leaves out an empty body", () => {
    const failed = log(0, "2026-11-25T09:30:00Z", "");
    const success = log(200, "2026-11-20T09:12:00Z", "");
    expect(comparisonSummary(failed, success, { now: NOW, timeZone: "UTC" })).toBe(
      "Worked until 09:12 on 20 Nov with 200; this delivery then failed: no connection.",
    );
  });

  it("says when there is no success in the history", () => {
    const failed = log(404, "2026-11-25T09:30:00Z", "Not Found");
    expect(comparisonSummary(failed, null, { now: NOW, timeZone: "UTC" })).toBe(
      "No success in the history; 404 with 'Not Found' at 09:30 today.",
    );
  });

  it("compareWithLastSuccess gives the gap and the diff beside the sentence", () => {
    const failed = log(500, "2026-11-25T09:30:00Z", "boom");
    const success = log(200, "2026-11-25T06:15:00Z", "ok");
    const comparison = compareWithLastSuccess(failed, success, { now: NOW, timeZone: "UTC" });
    expect(comparison.gapMs).toBe(3 * 3_600_000 + 15 * 60_000);
    expect(comparison.gapText).toBe("3 h 15 min");
    expect(comparison.diff?.kind).toBe("lines");
    expect(compareWithLastSuccess(failed, null, { now: NOW, timeZone: "UTC" }).diff).toBeNull();
  });
});

describe("time words", () => {
  it("validates IANA zones", () => {
    expect(parseTimeZone("Europe/Berlin")).toBe("Europe/Berlin");
    expect(parseTimeZone("Mars/Olympus")).toBeNull();
    expect(parseTimeZone("")).toBeNull();
  });

  it("says other years and spans", () => {
    expect(timeWords(Date.parse("2025-03-01T07:05:00Z"), NOW, "UTC")).toBe("07:05 on 1 Mar 2025");
    expect(spanWords(45_000)).toBe("45 s");
    expect(spanWords(2 * 86_400_000 + 4 * 3_600_000)).toBe("2 d 4 h");
  });
});
