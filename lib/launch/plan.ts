/**
 * What the launcher runs, as plain data (so it can be tested without starting anything):
 * the sandbox child when HUB_BASE_URL is unset, and the Next.js console child.
 */
import path from "node:path";

export type Mode = "dev" | "start";
export type Env = Readonly<Record<string, string | undefined>>;

export interface Command {
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
}

export const DEFAULT_CONSOLE_PORT = "3000";
export const DEFAULT_SANDBOX_PORT = "4010";

export function parseMode(value: string | undefined): Mode | undefined {
  return value === "dev" || value === "start" ? value : undefined;
}

/** True when the console should run on a local sandbox (HUB_BASE_URL unset or empty). */
export function usesSandbox(env: Env): boolean {
  return !env.HUB_BASE_URL?.trim();
}

/** `tsx lib/sandbox/main.ts`, inheriting the environment, on SANDBOX_PORT (default 4010). */
export function sandboxCommand(env: Env, root: string): Command {
  return {
    command: path.join(root, "node_modules/.bin/tsx"),
    args: [path.join(root, "lib/sandbox/main.ts")],
    env: { ...env, SANDBOX_PORT: env.SANDBOX_PORT?.trim() || DEFAULT_SANDBOX_PORT },
  };
}

/**
 * `next dev|start -p $PORT [-H $HOST]`. With a sandbox, HUB_BASE_URL is its URL and HUB_SANDBOX=1
 * (how the console knows it is in sandbox mode); without, the environment's HUB_BASE_URL is used.
 */
export function consoleCommand(mode: Mode, env: Env, root: string, sandboxUrl: string | undefined): Command {
  const args = [mode, "-p", consolePort(env)];
  if (env.HOST?.trim()) args.push("-H", env.HOST.trim());
  const hub =
    sandboxUrl === undefined ? { HUB_SANDBOX: undefined } : { HUB_BASE_URL: sandboxUrl, HUB_SANDBOX: "1" };
  return {
    command: path.join(root, "node_modules/.bin/next"),
    args,
    env: { ...env, NEXT_TELEMETRY_DISABLED: "1", ...hub },
  };
}

export function consolePort(env: Env): string {
  return env.PORT?.trim() || DEFAULT_CONSOLE_PORT;
}

/** The interface HOST names, or undefined when the console listens on all of them (unset, 0.0.0.0, ::). */
export function consoleHost(env: Env): string | undefined {
  const host = env.HOST?.trim();
  return !host || host === "0.0.0.0" || host === "::" ? undefined : host;
}

/** The address a person opens: localhost unless HOST names a specific interface. */
export function consoleUrl(env: Env): string {
  const host = consoleHost(env);
  const shown = !host ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return `http://${shown}:${consolePort(env)}`;
}

/** Used when HUB_TIMEOUT_MS is unset or not a positive whole number (the console's own default). */
const DEFAULT_HUB_TIMEOUT_MS = 10_000;

/**
 * How long a child may take to stop before it is killed: the console finishes its requests in
 * flight for up to HUB_TIMEOUT_MS (+1 s) after SIGTERM; a few seconds more for Next to close.
 */
export function stopTimeoutMs(env: Env): number {
  const hubTimeoutMs = Number(env.HUB_TIMEOUT_MS?.trim() || DEFAULT_HUB_TIMEOUT_MS);
  return (Number.isInteger(hubTimeoutMs) && hubTimeoutMs > 0 ? hubTimeoutMs : DEFAULT_HUB_TIMEOUT_MS) + 5000;
}
