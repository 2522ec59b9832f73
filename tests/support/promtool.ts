/**
 * TEST ONLY. Runs Prometheus's `promtool` (Debian's `prometheus` package; .ci/run installs it when
 * it is missing) and answers its exit status and output. A machine without it fails the test
 * that asks, saying how to install it: the checks it makes are part of `npm test`.
 */
import { spawnSync } from "node:child_process";

export interface PromtoolRun {
  status: number;
  output: string;
}

export function promtool(args: readonly string[], input?: string): PromtoolRun {
  const run = spawnSync("promtool", args, { input, encoding: "utf8", timeout: 60_000 });
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
    throw new Error(
      "promtool is not installed, and these tests need it: `apt-get install prometheus` (Debian's package ships /usr/bin/promtool); .ci/run installs it.",
    );
  }
  if (run.error) throw run.error;
  return { status: run.status ?? 1, output: `${run.stdout}${run.stderr}` };
}
