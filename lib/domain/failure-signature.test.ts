import { describe, expect, it } from "vitest";
import {
  SIGNATURE_INPUT_MAX,
  SIGNATURE_TEXT_MAX,
  failureCause,
  normalizeBody,
} from "@/lib/domain/failure-signature";

describe("normalizeBody", () => {
  it("strips ids, UUIDs, numbers, times and hex, keeping the words", () => {
    expect(
      normalizeBody(
        '{"error":"internal","message":"database connection lost","requestId":"req_3f2a9c1b4d5e","at":"2024-06-11T08:12:31.123Z"}',
      ),
    ).toBe('{"error":"internal","message":"database connection lost","requestId":"<id>","at":"<time>"}');
    expect(normalizeBody("order 3f2b6c1e-8d4a-4f0b-9c2d-1a2b3c4d5e6f failed after 30 s, retry 2")).toBe(
      "order <uuid> failed after <n> s, retry <n>",
    );
    expect(normalizeBody("sha 9f86d081884c7d659a2feaa0c55ad015 at Tue, 11 Jun 2024 08:12:31 GMT")).toBe(
      "sha <id> at <time>",
    );
    expect(normalizeBody("connection refused by 127.0.0.1:1 (ECONNREFUSED)")).toBe(
      "connection refused by <n>.<n>.<n>.<n>:<n> (ECONNREFUSED)",
    );
  });

  it("keeps the text of HTML, without markup, scripts or entities", () => {
    expect(
      normalizeBody(
        "<!DOCTYPE html><html><head><title>Not Found</title><style>p{x:1}</style></head>" +
          '<body><h1>Not&nbsp;Found</h1><script>alert(1)</script><img src="x" onerror="alert(2)"></body></html>',
      ),
    ).toBe("Not Found Not Found");
  });

  it("gives one signature to failures that differ only in volatile parts, and two to different causes", () => {
    const a = failureCause(500, '{"message":"database connection lost","requestId":"req_aaaa11112222"}');
    const b = failureCause(500, '{"message":"database connection lost","requestId":"req_bbbb33334444"}');
    const other = failureCause(500, '{"message":"disk full","requestId":"req_aaaa11112222"}');
    expect(a.signature).toBe(b.signature);
    expect(a.text).toBe(b.text);
    expect(other.signature).not.toBe(a.signature);
    expect(a.signature).toMatch(/^[0-9a-f]{14}$/);
  });

  it("treats an empty body and blank space alike", () => {
    expect(failureCause(0, "").signature).toBe(failureCause(0, "  \n\t ").signature);
    expect(failureCause(0, "").text).toBe("");
  });

  it("reads only the start of a huge body, and shows a short text", () => {
    const head = "<html><body><pre>TypeError: Cannot read properties of undefined\n";
    const huge = head + "    at handler (/srv/app/webhooks.js:42:31)\n".repeat(100_000);
    const other = head + "    at other (/srv/app/index.js:7:1)\n".repeat(100_000);
    const cause = failureCause(500, huge);
    expect(cause.text.length).toBeLessThanOrEqual(SIGNATURE_TEXT_MAX);
    expect(cause.text).toMatch(/^TypeError: Cannot read properties of undefined at handler/);
    expect(cause.text.endsWith("…")).toBe(true);
    // What lies past the part read does not change the cause.
    expect(failureCause(500, huge + "tail").signature).toBe(cause.signature);
    expect(failureCause(500, other).signature).not.toBe(cause.signature);
    expect(normalizeBody(huge).length).toBeLessThanOrEqual(SIGNATURE_INPUT_MAX);
  });

  it("survives hostile bodies: unclosed markup, endless words, control characters, lone surrogates", () => {
    const bodies = [
      "<".repeat(1_000_000),
      "<a".repeat(500_000),
      "a".repeat(1_000_000) + "1",
      "1".repeat(1_000_000),
      "-_".repeat(500_000),
      "&#".repeat(500_000),
      "<script>" + "x".repeat(1_000_000),
      "\u0000\u0007\ud800\udfff\ud800".repeat(10_000),
      "2024-06-11T".repeat(100_000),
    ];
    for (const body of bodies) {
      const cause = failureCause(502, body);
      expect(cause.signature).toMatch(/^[0-9a-f]{14}$/);
      expect(cause.text.length).toBeLessThanOrEqual(SIGNATURE_TEXT_MAX);
    }
    // A word of digits is a number, however long.
    expect(normalizeBody("1".repeat(1_000_000))).toBe("<n>");
    expect(normalizeBody("a".repeat(20) + "1")).toBe("<id>");
  });
});
