import { describe, expect, it } from "vitest";
import {
  PRETTY_PRINT_MAX_CHARS,
  formatBody,
  formatBytes,
  previewBody,
  utf8Length,
} from "@/lib/domain/format-body";

describe("formatBody", () => {
  it("pretty-prints JSON objects and arrays", () => {
    expect(formatBody('{"ok":true,"items":[1,2]}')).toEqual({
      text: '{\n  "ok": true,\n  "items": [\n    1,\n    2\n  ]\n}',
      kind: "json",
      bytes: 25,
      tooLargeToFormat: false,
    });
    expect(formatBody(" [1] ").kind).toBe("json");
  });

  it("keeps anything else raw, including HTML with script", () => {
    const html = "<html><script>alert('x')</script></html>";
    expect(formatBody(html)).toEqual({
      text: html,
      kind: "raw",
      bytes: html.length,
      tooLargeToFormat: false,
    });
    expect(formatBody("Internal Server Error").kind).toBe("raw");
    expect(formatBody("{not json}").kind).toBe("raw");
    expect(formatBody("42").kind).toBe("raw");
  });

  it("marks an empty body", () => {
    expect(formatBody("")).toMatchObject({ kind: "empty", bytes: 0 });
    expect(formatBody("  \n").kind).toBe("empty");
  });

  it("does not pretty-print a body over the limit", () => {
    const big = `[${"1,".repeat(PRETTY_PRINT_MAX_CHARS / 2)}1]`;
    const formatted = formatBody(big);
    expect(formatted).toMatchObject({ kind: "raw", tooLargeToFormat: true });
    expect(formatted.text).toBe(big);
  });
});

describe("utf8Length", () => {
  it("counts UTF-8 bytes", () => {
    expect(utf8Length("abc")).toBe(3);
    expect(utf8Length("é")).toBe(2);
    expect(utf8Length("€")).toBe(3);
    expect(utf8Length("😀")).toBe(4);
    expect(utf8Length("a😀é")).toBe(new TextEncoder().encode("a😀é").length);
  });
});

describe("previewBody", () => {
  it("collapses whitespace onto one line", () => {
    expect(previewBody('{\n  "ok": true\n}')).toBe('{ "ok": true }');
  });

  it("cuts long bodies with an ellipsis", () => {
    const preview = previewBody("x".repeat(300), 120);
    expect(preview).toHaveLength(120);
    expect(preview.endsWith("…")).toBe(true);
  });

  it("only reads the head of a huge body", () => {
    const preview = previewBody(`${"a ".repeat(100)}${"b".repeat(500_000)}`, 50);
    expect(preview.length).toBeLessThanOrEqual(50);
  });
});

describe("formatBytes", () => {
  it.each([
    [0, "0 bytes"],
    [1, "1 byte"],
    [1023, "1023 bytes"],
    [1024, "1.0 KB"],
    [200 * 1024, "200 KB"],
    [1536 * 1024, "1.5 MB"],
  ])("formats %i as %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
