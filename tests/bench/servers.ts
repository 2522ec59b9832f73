/**
 * The benchmark's own processes and readings: making sure the console's and the bare Next app's
 * builds exist, the reference servers (the bare node:http hop, the bare Next app), free ports,
 * and CPU time and peak RSS from /proc. The sandbox and the console start through
 * tests/support/server-process.ts, as the e2e specs start them.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { NEXT_BIN, ROOT, startServer, type Server } from "../support/server-process";

export { ROOT };

/** The build directory `next start` will serve: NEXT_DIST_DIR, as next.config.mjs reads it. */
export function distDir(): string {
  return process.env.NEXT_DIST_DIR || ".next";
}

/**
 * Makes sure a production build exists. With one present it builds nothing, and says so when
 * sources are newer than it (BENCH_BUILD=1 rebuilds); without one it runs `next build` first.
 */
export function ensureBuild(log: (line: string) => void): void {
  const dir = distDir();
  const buildId = path.join(ROOT, dir, "BUILD_ID");
  const force = process.env.BENCH_BUILD === "1";
  if (!force && fs.existsSync(buildId)) {
    const builtAt = fs.statSync(buildId).mtimeMs;
    const newer = newestSource() > builtAt;
    log(`using the production build in ${dir}/ (built ${new Date(builtAt).toISOString()})`);
    if (newer) log(`note: sources changed after that build; run with BENCH_BUILD=1 to rebuild it first`);
    return;
  }
  log(
    force
      ? `BENCH_BUILD=1: running next build (into ${dir}/) first`
      : `no production build in ${dir}/ (no BUILD_ID): running next build first`,
  );
  // `next build` adds `<distDir>/types` to tsconfig.json's include (and reformats it): put it back as it was.
  const tsconfig = path.join(ROOT, "tsconfig.json");
  const before = fs.readFileSync(tsconfig, "utf8");
  const result = spawnSync(process.execPath, [NEXT_BIN, "build"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (fs.readFileSync(tsconfig, "utf8") !== before) {
    fs.writeFileSync(tsconfig, before);
    log("restored tsconfig.json, which next build had rewritten");
  }
  if (result.status !== 0) throw new Error(`next build failed (exit ${result.status ?? result.signal})`);
}

export function buildInfo(): { distDir: string; buildId: string | null; commit: string | null } {
  const dir = distDir();
  const buildIdFile = path.join(ROOT, dir, "BUILD_ID");
  const buildId = fs.existsSync(buildIdFile) ? fs.readFileSync(buildIdFile, "utf8").trim() : null;
  const git = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" });
  return { distDir: dir, buildId, commit: git.status === 0 ? git.stdout.trim() : null };
}

function newestSource(): number {
  let newest = 0;
  const visit = (p: string) => {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(p))
        if (entry !== "sandbox" && entry !== "launch") visit(path.join(p, entry));
    } else if (/\.(tsx?|css|mjs)$/.test(p) && !/\.test\.tsx?$/.test(p)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const p of ["app", "components", "lib", "proxy.ts", "instrumentation.ts", "next.config.mjs"])
    visit(path.join(ROOT, p));
  return newest;
}

export async function assertPortFree(port: number, what: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = net.createServer();
    server.once("error", () =>
      reject(
        new Error(`port ${port} (for the ${what}) is in use; stop what listens there or pick another port`),
      ),
    );
    server.listen(port, "127.0.0.1", () => server.close(() => resolve()));
  });
}

/** The pass-through proxy (bare-proxy.ts) in front of `upstream`, holding each request `delayMs` first. */
export async function startBareProxyProcess(options: {
  port: number;
  upstream: string;
  delayMs?: number;
  name?: string;
}): Promise<Server> {
  return startServer({
    name: options.name ?? "bare proxy",
    port: options.port,
    args: ["--import", "tsx", path.join(ROOT, "tests/bench/bare-proxy.ts")],
    env: {
      BARE_PROXY_PORT: String(options.port),
      BARE_PROXY_UPSTREAM: options.upstream,
      BARE_PROXY_DELAY_MS: String(options.delayMs ?? 0),
    },
    readyPath: "/_bare/health",
    ready: (status) => status === 200,
  });
}

/** The framework floor's app: a Next app of one pass-through route handler, built into its own `.next/`. */
export const BARE_NEXT_DIR = path.join(ROOT, "tests/bench/bare-next");

/** Builds the bare Next app when it has no build, or when its sources or Next are newer than that build. */
export function ensureBareNextBuild(log: (line: string) => void): void {
  const buildId = path.join(BARE_NEXT_DIR, ".next/BUILD_ID");
  const builtAt = fs.statSync(buildId, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const inputs = [
    path.join(ROOT, "node_modules/next/package.json"),
    // The console's security headers, which its `/secured` page sends.
    path.join(ROOT, "lib/server/http/security-headers.mjs"),
    ...filesUnder(BARE_NEXT_DIR, [".next", "next-env.d.ts"]),
  ];
  if (builtAt > 0 && inputs.every((file) => fs.statSync(file).mtimeMs <= builtAt)) return;
  log(`building the bare Next app (${path.relative(ROOT, BARE_NEXT_DIR)}/.next/)`);
  const result = spawnSync(process.execPath, [NEXT_BIN, "build", BARE_NEXT_DIR], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0)
    throw new Error(`next build of the bare Next app failed (exit ${result.status ?? result.signal})`);
}

/** `next start` of the bare Next app, passing the logs call through to `upstream`. */
export async function startBareNextProcess(options: { port: number; upstream: string }): Promise<Server> {
  return startServer({
    name: "bare Next",
    port: options.port,
    args: [NEXT_BIN, "start", BARE_NEXT_DIR, "-p", String(options.port), "-H", "127.0.0.1"],
    env: { NODE_ENV: "production", BARE_NEXT_UPSTREAM: options.upstream },
    readyPath: "/health",
    ready: (status) => status === 200,
  });
}

/** Every file under `dir`, skipping files and folders named in `skip`. */
function filesUnder(dir: string, skip: readonly string[]): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (skip.includes(entry.name)) return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full, skip) : [full];
  });
}

/** A process and its descendants, from /proc (Linux). */
export function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    const current = out[i] as number;
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${current}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      const children = readProc(current, `task/${task}/children`)?.trim();
      if (children) out.push(...children.split(/\s+/).map(Number));
    }
  }
  return out;
}

/** The sum of a per-process reading over a process and its descendants; null when none could be read. */
export function treeTotal(pid: number, read: (pid: number) => number | null): number | null {
  const all = processTree(pid).map(read);
  return all.every((v) => v === null) ? null : all.reduce<number>((sum, v) => sum + (v ?? 0), 0);
}

/** A file of /proc/<pid>/, or null when the process (or the file) is gone. */
function readProc(pid: number, file: string): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return null;
  }
}

/** Peak resident set size (VmHWM) of a process, in bytes; null when it cannot be read. */
export function peakRssBytes(pid: number): number | null {
  const status = readProc(pid, "status");
  return status === null ? null : parseStatusBytes(status, "VmHWM");
}

/** Resident set size now (VmRSS) of a process, in bytes; null when it cannot be read. */
export function rssBytes(pid: number): number | null {
  const status = readProc(pid, "status");
  return status === null ? null : parseStatusBytes(status, "VmRSS");
}

/** A `<field>: <n> kB` line of /proc/<pid>/status, in bytes. */
export function parseStatusBytes(status: string, field: "VmHWM" | "VmRSS"): number | null {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, "m").exec(status);
  return match ? Number(match[1]) * 1024 : null;
}

/** CPU time (user + system) a process has used so far, in milliseconds; null when it cannot be read. */
export function cpuMs(pid: number): number | null {
  const stat = readProc(pid, "stat");
  return stat === null ? null : parseCpuMs(stat);
}

/** utime + stime of a /proc/<pid>/stat line (fields 14 and 15, after the parenthesised name), in ms at 100 ticks/s. */
export function parseCpuMs(stat: string): number | null {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) * 10 : null;
}
