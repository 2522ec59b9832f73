import "server-only";
import { Redis } from "ioredis";
import { serverConfig } from "@/lib/server/config";
import { Outage } from "@/lib/server/shared-state/outage";

/**
 * The connection to Redis (REDIS_URL) that instances share state through. Built so that Redis
 * can never stop a request: no offline queue (a command while disconnected fails at once),
 * short command and connect timeouts, and after a failed command Redis is skipped for a moment
 * instead of being asked again by every request. It reconnects in the background forever, so a
 * Redis that comes back is used again without a restart. The outage and the recovery are each
 * logged once. Callers treat `undefined` from `run()` as "Redis unreachable" and fall back.
 */

const COMMAND_TIMEOUT_MS = 250;
const CONNECT_TIMEOUT_MS = 1000;
const RECONNECT_MAX_DELAY_MS = 1000;
/** After a failed command, Redis is not asked again for this long (a hung server costs one timeout per pause). */
const PAUSE_AFTER_FAILURE_MS = 2000;

type Log = Pick<Console, "info" | "error">;

export class SharedRedis {
  readonly client: Redis;
  /** Where, for log lines: host:port/db, never the password. */
  readonly where: string;
  private readonly outage: Outage;
  private readonly firstAnswer: Promise<void>;

  constructor(url: string, log: Log = console) {
    const parsed = new URL(url);
    this.where = `${parsed.hostname}:${parsed.port || "6379"}${parsed.pathname.length > 1 ? parsed.pathname : ""}`;
    this.outage = new Outage(
      log,
      {
        first: `[console] Shared state on Redis at ${this.where}.`,
        recovered: `[console] Redis at ${this.where} is reachable again: sign-in limits and sign-outs are shared again.`,
        down: (reason) =>
          `[console] Redis at ${this.where} is unreachable (${reason}). Until it returns, sign-in limits count per instance ` +
          "and sign-outs are enforced on the instance that recorded them (they are shared once Redis is back). Retrying in the background.",
      },
      PAUSE_AFTER_FAILURE_MS,
    );
    this.client = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(attempt * 100, RECONNECT_MAX_DELAY_MS),
    });
    this.firstAnswer = new Promise<void>((resolve) => {
      this.client.once("ready", resolve);
      this.client.once("error", resolve);
      setTimeout(resolve, CONNECT_TIMEOUT_MS).unref();
    });
    this.client.on("ready", () => this.outage.up());
    // ioredis reports every failed reconnect attempt: only the first of an outage is logged.
    this.client.on("error", (error: Error) => this.outage.down(error.message));
    this.client.on("close", () => this.outage.down("the connection closed"));
  }

  /** True while commands are expected to work (connected, and no recent failure). */
  available(): boolean {
    return this.client.status === "ready" && !this.outage.paused();
  }

  /** `available()`, once the first connection attempt has settled (at most the connect timeout). */
  async usable(): Promise<boolean> {
    if (this.outage.state === "connecting") await this.firstAnswer;
    return this.available();
  }

  /** Runs one command; `undefined` when Redis is unreachable or the command failed (logged once per outage). */
  async run<T>(command: (client: Redis) => Promise<T>): Promise<T | undefined> {
    if (!(await this.usable())) return undefined;
    return this.outage.run(() => command(this.client));
  }

  /** PING within the command timeout: for the readiness check. */
  async ping(): Promise<boolean> {
    if (this.outage.state === "connecting") await this.firstAnswer;
    if (this.client.status !== "ready") return false;
    try {
      await this.client.ping();
      this.outage.resume();
      this.outage.up();
      return true;
    } catch (error) {
      this.outage.down(error instanceof Error ? error.message : String(error));
      return false;
    }
  }

  /** Called each time Redis is reachable again after an outage. */
  whenRecovered(listener: () => void): void {
    this.outage.whenRecovered(listener);
  }

  async close(): Promise<void> {
    this.outage.forgetListeners();
    this.client.removeAllListeners("close");
    this.client.removeAllListeners("error");
    this.client.on("error", () => undefined);
    this.client.disconnect();
  }
}

const globalForRedis = globalThis as typeof globalThis & {
  __hubConsoleRedis?: { url: string; shared: SharedRedis };
};

/**
 * The process's connection (one for every route bundle, kept on globalThis), made on first use;
 * null when REDIS_URL is not set.
 */
export function sharedRedis(): SharedRedis | null {
  const url = serverConfig().redisUrl;
  if (!url) return null;
  const current = globalForRedis.__hubConsoleRedis;
  if (current?.url === url) return current.shared;
  void current?.shared.close();
  const shared = new SharedRedis(url);
  globalForRedis.__hubConsoleRedis = { url, shared };
  return shared;
}
