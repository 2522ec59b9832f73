/**
 * The benchmark's result: one row per figure (figure | measured | goal | holds), printed as a
 * table and written as JSON. Formatting is pure and unit-tested (report.test.ts).
 */
import fs from "node:fs";
import path from "node:path";

export type Holds = "yes" | "no" | "report";

export interface Figure {
  figure: string;
  /** What was measured, for a person: the ratio first, then what it is made of. */
  measured: string;
  goal: string;
  holds: Holds;
  /** The raw numbers behind the row, for the JSON file. */
  details: Record<string, unknown>;
}

export type Goal = { atMost: number } | { atLeast: number };

export function judge(value: number, goal: Goal): Holds {
  if ("atMost" in goal) return value <= goal.atMost ? "yes" : "no";
  return value >= goal.atLeast ? "yes" : "no";
}

export function goalText(goal: Goal, unit = ""): string {
  return "atMost" in goal ? `≤ ${goal.atMost}${unit}` : `≥ ${goal.atLeast}${unit}`;
}

/** A figure whose value is a ratio of two sides measured in the same run. */
export function ratioFigure(
  figure: string,
  value: number,
  goal: Goal | null,
  parts: string,
  details: Record<string, unknown>,
): Figure {
  return {
    figure,
    measured: `${formatRatio(value)} (${parts})`,
    goal: goal ? goalText(goal) : "report",
    holds: goal ? judge(value, goal) : "report",
    details: { ratio: value, ...details },
  };
}

export function formatRatio(value: number): string {
  return value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** Milliseconds with a precision that fits their size. */
export function formatMs(ms: number): string {
  if (ms >= 100) return `${Math.round(ms)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/** Bytes in kB (1 kB = 1000 B, as `next build` counts them). */
export function formatKb(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

export function formatMiB(bytes: number, digits = 0): string {
  return `${(bytes / 1024 / 1024).toFixed(digits)} MiB`;
}

/** Whole numbers with thin grouping: 1000000 → "1,000,000". */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

const HEADERS = ["figure", "measured", "goal", "holds"] as const;

/** A plain-text table; `measured` wraps at `width` characters so the table fits a terminal. */
export function formatTable(figures: readonly Figure[], width = 72): string {
  const rows = figures.map((f) => [f.figure, f.measured, f.goal, f.holds] as const);
  const lines = rows.flatMap((row) => {
    const wrapped = wrap(row[1], width);
    return wrapped.map((part, i) => (i === 0 ? [row[0], part, row[2], row[3]] : ["", part, "", ""]));
  });
  const widths = HEADERS.map((h, col) => Math.max(h.length, ...lines.map((l) => (l[col] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, col) => c.padEnd(widths[col] ?? 0))
      .join(" | ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("-+-");
  return [line(HEADERS), rule, ...lines.map(line)].join("\n");
}

/** The same table as Markdown, for README. */
export function formatMarkdown(figures: readonly Figure[]): string {
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  return [
    "| figure | measured | goal | holds |",
    "|---|---|---|---|",
    ...figures.map((f) => `| ${esc(f.figure)} | ${esc(f.measured)} | ${esc(f.goal)} | ${f.holds} |`),
  ].join("\n");
}

/** Splits text at spaces into pieces of at most `width` characters (a longer word stays whole). */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let current = "";
  for (const word of text.split(" ")) {
    if (current !== "" && current.length + 1 + word.length > width) {
      out.push(current);
      current = word;
    } else {
      current = current === "" ? word : `${current} ${word}`;
    }
  }
  out.push(current);
  return out;
}

/** The figures whose goal does not hold, leaving out those that could not be measured (`errors`). */
export function failingGoals(figures: readonly Figure[], errors: readonly string[]): string[] {
  return figures.filter((f) => f.holds === "no" && !errors.includes(f.figure)).map((f) => f.figure);
}

export interface BenchResult {
  startedAt: string;
  quick: boolean;
  /** The sections measured (`--only`); null: all of them. */
  only: string[] | null;
  durationSeconds: number;
  machine: { cpus: number; node: string; loadavgAtStart: number[] };
  /** Which build was measured: its folder, BUILD_ID and the commit checked out. */
  build: { distDir: string; buildId: string | null; commit: string | null };
  fill: { rows: number; seconds: number };
  figures: Figure[];
}

/** Writes bench-results/bench-<timestamp>.json and bench-results/latest.json; returns the first path. */
export function writeResult(dir: string, result: BenchResult): string {
  fs.mkdirSync(dir, { recursive: true });
  const stamp = result.startedAt.replace(/[:.]/g, "-");
  const file = path.join(dir, `bench-${stamp}.json`);
  const json = `${JSON.stringify(result, null, 2)}\n`;
  fs.writeFileSync(file, json);
  fs.writeFileSync(path.join(dir, "latest.json"), json);
  return file;
}
