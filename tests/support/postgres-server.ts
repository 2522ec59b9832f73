/**
 * TEST ONLY. A real PostgreSQL cluster: `initdb` in a temporary directory, the server on a free
 * 127.0.0.1 port, stopped (an outage, or a crash with SIGKILL) and started again on the same port,
 * removed at the end. One serves the whole vitest run (postgres-global-setup.ts); a test that stops
 * its server starts one of its own. PostgreSQL refuses to run as root, so under root it runs
 * as the `postgres` user (`runuser`). CI installs it (.ci/run); a missing one fails the test.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "./server-process";

export interface PostgresServer {
  port: number;
  /** URL of the `postgres` database; `databaseUrl(name)` for another. */
  url: string;
  /** Creates a fresh database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  start(): Promise<void>;
  /** Stops it: "fast" (a clean shutdown) or "kill" (SIGKILL, a crash). */
  stop(how?: "fast" | "kill"): Promise<void>;
  /** Stops it and removes the cluster. */
  remove(): Promise<void>;
}

function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions
    .map((v) => path.join(root, v, "bin"))
    .find((dir) => existsSync(path.join(dir, "initdb")));
  if (!found)
    throw new Error(
      "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run .ci/run, or apt-get install postgresql",
    );
  return found;
}

const asRoot = process.getuid?.() === 0;

/** The command as the `postgres` user when we are root. */
function command(bin: string, args: string[]): [string, string[]] {
  return asRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates database `name` on the cluster at `serverUrl` (its `postgres` database) and returns its URL. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`create database "${name.replace(/"/g, "")}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function postgresServer(options: { maxConnections?: number } = {}): Promise<PostgresServer> {
  const bin = binDir();
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "watch-pg-"));
  const data = path.join(dir, "data");
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  const [initdb, initArgs] = command(path.join(bin, "initdb"), [
    "-D",
    data,
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    // A UTF-8 locale, as production databases have: lower() folds every letter, not only A-Z.
    "--locale=C.UTF-8",
    "--no-sync",
  ]);
  execFileSync(initdb, initArgs, { stdio: "pipe" });
  const url = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  let child: ChildProcess | undefined;
  let output = "";

  const postmasterPid = (): number | null => {
    try {
      return Number(readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    } catch {
      return null;
    }
  };

  const server: PostgresServer = {
    port,
    url: url("postgres"),
    createDatabase: (name) => createDatabase(url("postgres"), name),
    async start() {
      output = "";
      const [cmd, args] = command(path.join(bin, "postgres"), [
        "-D",
        data,
        "-p",
        String(port),
        "-k",
        dir,
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "fsync=off",
        "-c",
        `max_connections=${options.maxConnections ?? 100}`,
      ]);
      const started = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
      child = started;
      started.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      started.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        if (started.exitCode !== null) throw new Error(`postgres exited (${started.exitCode}):\n${output}`);
        if (await answers(url("postgres"))) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`postgres did not answer on port ${port}:\n${output}`);
    },
    async stop(how = "fast") {
      const running = child;
      child = undefined;
      const pid = postmasterPid();
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      if (pid) process.kill(pid, how === "kill" ? "SIGKILL" : "SIGINT");
      if (how === "kill") {
        // Its backends hold the shared memory; without the postmaster they end on their own.
        running.kill("SIGKILL");
        await new Promise((resolve) => setTimeout(resolve, 200));
        rmSync(path.join(data, "postmaster.pid"), { force: true });
        rmSync(path.join(dir, `.s.PGSQL.${port}.lock`), { force: true });
      }
      await exited;
    },
    async remove() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
