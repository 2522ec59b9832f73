/**
 * Lighthouse (the npm package's CLI) on the signed-in webhook page, in the project's Chromium:
 * the mobile preset (Lighthouse's default: a slow phone, simulated) and the desktop preset. The
 * session cookie goes as an extra header. Several runs of a page are summed up as Lighthouse
 * advises for noisy machines: the run nearest the median (Lighthouse's own computeMedianRun), with
 * every run's score beside it. What the JSON report holds that a front-end engineer needs: the
 * category scores, Total Blocking Time, and the main thread's longest tasks while the page loads
 * and hydrates (from the report and from the run's trace), with the scripts that cost the most.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import { ROOT } from "./servers";
import { longestTasks, type MainThreadTask } from "./trace-tasks";

export const CATEGORIES = ["performance", "accessibility", "best-practices"] as const;
export type Category = (typeof CATEGORIES)[number];
export type Preset = "mobile" | "desktop";

const CLI = path.join(ROOT, "node_modules/lighthouse/cli/index.js");
const CHROME_FLAGS = "--headless=new --no-sandbox --disable-dev-shm-usage --disable-gpu";

/** The parts of a Lighthouse result (LHR) the bench reads. */
export interface Lhr {
  lighthouseVersion?: string;
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<
    string,
    {
      title?: string;
      score: number | null;
      numericValue?: number;
      details?: { items?: Array<Record<string, unknown>> };
    }
  >;
}

export interface LighthouseSummary {
  preset: Preset;
  /** Scores 0..100 as Lighthouse shows them (rounded); null when a category could not be scored. */
  scores: Record<Category, number | null>;
  totalBlockingTimeMs: number | null;
  largestContentfulPaintMs: number | null;
  /** Audits of a scored category that did not pass, as "<category>: <title>". */
  missed: string[];
  /** The longest main-thread tasks while the page loaded, with the script each is attributed to. */
  longTasks: Array<{ url: string; startTimeMs: number; durationMs: number }>;
  /** Main-thread time by script (scripting, parse + compile), the largest first. */
  scripts: Array<{ url: string; totalMs: number; scriptingMs: number; parseCompileMs: number }>;
  /** Main-thread time by kind of work. */
  mainThread: Array<{ group: string; durationMs: number }>;
  /**
   * The longest tasks of the page's main thread in the trace of the run (real time on this
   * machine, not the simulated phone), each with what it was made of.
   */
  traceTasks?: MainThreadTask[];
  /** Every run of the page and preset, in the order they ran (this summary is of the median one). */
  runs: Array<{ performance: number | null; totalBlockingTimeMs: number | null }>;
}

/** One Lighthouse run: its result, and the longest tasks of its trace. */
export interface LighthouseRun {
  lhr: Lhr;
  traceTasks?: MainThreadTask[];
}

/** A category's score 0..100 as Lighthouse shows it (rounded); null when it could not be scored. */
function scoreOf(lhr: Lhr, category: Category): number | null {
  const score = lhr.categories[category]?.score;
  return typeof score === "number" ? Math.round(score * 100) : null;
}

/** What the bench lists of each run beside the median one. */
function runOf(lhr: Lhr): LighthouseSummary["runs"][number] {
  return {
    performance: scoreOf(lhr, "performance"),
    totalBlockingTimeMs: lhr.audits["total-blocking-time"]?.numericValue ?? null,
  };
}

const num = (value: unknown): number => (typeof value === "number" ? value : 0);
const str = (value: unknown): string => (typeof value === "string" ? value : "");

/** What the bench keeps of a Lighthouse result. */
export function summarizeLhr(preset: Preset, lhr: Lhr): LighthouseSummary {
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, scoreOf(lhr, c)])) as Record<
    Category,
    number | null
  >;
  const missed = CATEGORIES.flatMap((c) =>
    (lhr.categories[c]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit !== undefined && audit.score !== null && audit.score < 1)
      .map((audit) => `${c}: ${audit?.title ?? "?"}`),
  );
  const items = (id: string) => lhr.audits[id]?.details?.items ?? [];
  const run = runOf(lhr);
  return {
    preset,
    scores,
    totalBlockingTimeMs: run.totalBlockingTimeMs,
    largestContentfulPaintMs: lhr.audits["largest-contentful-paint"]?.numericValue ?? null,
    missed,
    longTasks: items("long-tasks")
      .map((t) => ({ url: str(t.url), startTimeMs: num(t.startTime), durationMs: num(t.duration) }))
      .sort((a, b) => b.durationMs - a.durationMs)
      .slice(0, 10),
    scripts: items("bootup-time")
      .map((s) => ({
        url: str(s.url),
        totalMs: num(s.total),
        scriptingMs: num(s.scripting),
        parseCompileMs: num(s.scriptParseCompile),
      }))
      .sort((a, b) => b.totalMs - a.totalMs)
      .slice(0, 10),
    mainThread: items("mainthread-work-breakdown").map((g) => ({
      group: str(g.groupLabel) || str(g.group),
      durationMs: num(g.duration),
    })),
    runs: [run],
  };
}

/**
 * Runs of one page and preset: the summary of the run nearest the median first paint and time
 * to interactive (Lighthouse's computeMedianRun: the median of the score itself can still be an
 * outlier at the start or end of the load), with every run's score and Total Blocking Time.
 */
export function summarizeRuns(preset: Preset, runs: LighthouseRun[]): LighthouseSummary {
  const median = computeMedianRun(
    runs.map((run) => run.lhr as unknown as Parameters<typeof computeMedianRun>[0][number]),
  );
  const run = runs.find((candidate) => (candidate.lhr as unknown) === median);
  if (!run) throw new Error("Lighthouse's median run is none of the runs");
  return {
    ...summarizeLhr(preset, run.lhr),
    traceTasks: run.traceTasks,
    runs: runs.map((each) => runOf(each.lhr)),
  };
}

interface LighthouseInput {
  url: string;
  cookie?: string;
  preset: Preset;
  /** Where BENCH_LIGHTHOUSE_DIR keeps this run's report and trace, e.g. `mobile/console-1`. */
  label: string;
  port: number;
  chromePath: string;
  /** Told of a run that failed and runs again. */
  log?: (line: string) => void;
}

/** Runs of one page after a failure that Lighthouse itself says to run again. */
const ATTEMPTS = 3;

/**
 * One Lighthouse run of `url` (with `cookie`, `name=value`, when given), Chrome's debugging port
 * on `port`. A run that fails with an error Lighthouse says is worth running again (a trace
 * recorded without its navigation start, NO_NAVSTART, on a busy machine) runs again, up to
 * ATTEMPTS times; any other failure is the bench's.
 */
export async function runLighthouse(input: LighthouseInput): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runLighthouseOnce(input);
    } catch (error) {
      if (attempt >= ATTEMPTS || !isWorthRunningAgain(error)) throw error;
      input.log?.(
        `Lighthouse ${input.label}, attempt ${attempt} of ${ATTEMPTS} failed, running again: ${String(error)}`,
      );
    }
  }
}

/** Lighthouse's runtime errors that end with its own advice: "Please run Lighthouse again." */
export function isWorthRunningAgain(error: unknown): boolean {
  return error instanceof Error && /run Lighthouse again/i.test(error.message);
}

/** One run. Headers go through a file, so the cookie is not on a command line. */
async function runLighthouseOnce(input: LighthouseInput): Promise<LighthouseRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hub-bench-lighthouse-"));
  try {
    const headers = path.join(dir, "headers.json");
    const report = path.join(dir, "report.json");
    fs.writeFileSync(headers, JSON.stringify(input.cookie ? { Cookie: input.cookie } : {}), { mode: 0o600 });
    const args = [
      CLI,
      input.url,
      "--quiet",
      "--output=json",
      `--output-path=${report}`,
      `--only-categories=${CATEGORIES.join(",")}`,
      `--extra-headers=${headers}`,
      `--port=${input.port}`,
      `--chrome-flags=${CHROME_FLAGS}`,
      "--save-assets",
      ...(input.preset === "desktop" ? ["--preset=desktop"] : []),
    ];
    const stderr = await run(args, { ...process.env, CHROME_PATH: input.chromePath });
    if (!fs.existsSync(report)) throw new Error(`Lighthouse wrote no report: ${stderr.slice(-500)}`);
    const lhr = JSON.parse(fs.readFileSync(report, "utf8")) as Lhr & { runtimeError?: { message?: string } };
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message ?? "runtime error"}`);
    const landed = (lhr as { finalDisplayedUrl?: string }).finalDisplayedUrl ?? input.url;
    if (new URL(landed).pathname !== new URL(input.url).pathname)
      throw new Error(
        `Lighthouse measured ${landed}, not the page asked for (${input.url}): was the session sent?`,
      );
    const traceFile = fs.readdirSync(dir).find((name) => name.endsWith(".trace.json"));
    const traceTasks = traceFile
      ? longestTasks(JSON.parse(fs.readFileSync(path.join(dir, traceFile), "utf8")))
      : undefined;
    return { lhr, traceTasks };
  } finally {
    // BENCH_LIGHTHOUSE_DIR=<dir> keeps each run's report and trace (for Chrome's Performance panel).
    const keep = process.env.BENCH_LIGHTHOUSE_DIR;
    if (keep) {
      fs.rmSync(path.join(dir, "headers.json"), { force: true });
      fs.cpSync(dir, path.join(keep, input.label), { recursive: true });
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      code === 0
        ? resolve(stderr)
        : reject(new Error(`Lighthouse exited ${code ?? signal}: ${stderr.slice(-500)}`)),
    );
  });
}
