import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  formatCount,
  formatKb,
  formatMarkdown,
  formatMs,
  formatRatio,
  formatTable,
  judge,
  ratioFigure,
  wrap,
  writeResult,
  type Figure,
} from "./report";

const figure = (over: Partial<Figure> = {}): Figure => ({
  figure: "proxy latency",
  measured: "1.20 (p50 3.00 ms ÷ 2.50 ms)",
  goal: "≤ 1.5",
  holds: "yes",
  details: {},
  ...over,
});

describe("judge", () => {
  it("holds at the limit itself, on either side", () => {
    expect(judge(1.5, { atMost: 1.5 })).toBe("yes");
    expect(judge(1.51, { atMost: 1.5 })).toBe("no");
    expect(judge(0.6, { atLeast: 0.6 })).toBe("yes");
    expect(judge(0.59, { atLeast: 0.6 })).toBe("no");
  });
});

describe("ratioFigure", () => {
  it("puts the ratio first, judges it against the goal and keeps it in details", () => {
    const f = ratioFigure("proxy throughput", 0.5, { atLeast: 0.6 }, "500 ÷ 1,000 req/s", {
      consoleRps: 500,
    });
    expect(f).toEqual({
      figure: "proxy throughput",
      measured: "0.50 (500 ÷ 1,000 req/s)",
      goal: "≥ 0.6",
      holds: "no",
      details: { ratio: 0.5, consoleRps: 500 },
    });
  });

  it("is a report when there is no goal", () => {
    const f = ratioFigure("sandbox scale, deep offset", 42, null, "x", {});
    expect(f.goal).toBe("report");
    expect(f.holds).toBe("report");
  });
});

describe("number formats", () => {
  it("formats ratios, times, sizes and counts", () => {
    expect(formatRatio(0.756)).toBe("0.76");
    expect(formatRatio(123.4)).toBe("123.4");
    expect(formatMs(0.1234)).toBe("0.12 ms");
    expect(formatMs(12.345)).toBe("12.3 ms");
    expect(formatMs(1234.5)).toBe("1235 ms");
    expect(formatKb(180_000)).toBe("180.0 kB");
    expect(formatCount(1_000_000)).toBe("1,000,000");
    expect(formatCount(1234.6)).toBe("1,235");
  });
});

describe("wrap", () => {
  it("splits at spaces within the width and keeps a long word whole", () => {
    expect(wrap("aa bb cc dd", 5)).toEqual(["aa bb", "cc dd"]);
    expect(wrap("averyveryverylongword x", 5)).toEqual(["averyveryverylongword", "x"]);
    expect(wrap("", 5)).toEqual([""]);
  });
});

describe("formatTable", () => {
  it("aligns the columns under a header and a rule", () => {
    const table = formatTable([
      figure(),
      figure({ figure: "memory", measured: "peak RSS: 200 MiB", goal: "report", holds: "report" }),
    ]);
    const lines = table.split("\n");
    expect(lines[0]).toMatch(/^figure\s+\| measured\s+\| goal\s+\| holds$/);
    expect(lines[1]).toMatch(/^-+-\+-+-\+-+-\+-+$/);
    const bar = lines[0]?.indexOf("|");
    for (const line of lines.slice(2)) expect(line.indexOf("|")).toBe(bar);
    expect(lines[3]).toContain("memory");
    expect(lines[3]?.endsWith("report")).toBe(true);
  });

  it("wraps a long measurement onto continuation lines with empty other cells", () => {
    const table = formatTable([figure({ measured: "one two three four five six" })], 10);
    const lines = table.split("\n").slice(2);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain("proxy latency");
    expect(lines[1]?.trimStart().startsWith("|")).toBe(true);
    expect(lines[1]).toContain("three four");
    expect(lines[2]).toContain("five six");
  });
});

describe("formatMarkdown", () => {
  it("makes a Markdown table and escapes pipes", () => {
    const md = formatMarkdown([figure({ measured: "a | b" })]);
    expect(md.split("\n")).toEqual([
      "| figure | measured | goal | holds |",
      "|---|---|---|---|",
      "| proxy latency | a \\| b | ≤ 1.5 | yes |",
    ]);
  });
});

describe("writeResult", () => {
  it("writes the timestamped file and latest.json with the same content", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-report-"));
    try {
      const result = {
        startedAt: "2025-01-02T03:04:05.678Z",
        quick: true,
        only: null,
        durationSeconds: 1,
        machine: { cpus: 2, node: "v20", loadavgAtStart: [0, 0, 0] },
        build: { distDir: ".next", buildId: "abc", commit: null },
        fill: { rows: 1, seconds: 0.1 },
        figures: [figure()],
      };
      const file = writeResult(dir, result);
      expect(path.basename(file)).toBe("bench-2025-01-02T03-04-05-678Z.json");
      expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual(result);
      expect(fs.readFileSync(path.join(dir, "latest.json"), "utf8")).toBe(fs.readFileSync(file, "utf8"));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
