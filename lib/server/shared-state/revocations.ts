import "server-only";
import { sharedRedis, type SharedRedis } from "@/lib/server/shared-state/redis";
import { DatabaseRevocations } from "@/lib/server/shared-state/database-revocations";

/**
 * Sessions signed out before they expired, by session id, each kept until the session would
 * have expired anyway. Always held in this process's memory (so the instance that recorded a
 * sign-out refuses that cookie at once) and in one shared place: Redis when REDIS_URL is set,
 * else the console's own database (the watch's store: embedded SQLite, or PostgreSQL with
 * DATABASE_URL), which also keeps them across restarts. While that place is unreachable the
 * check fails open (only this instance's own sign-outs are refused: the hub still checks the API
 * key on every call); the sign-outs recorded meanwhile are written again once it answers.
 */

/** Where sign-outs are shared between instances: Redis, or the console's database. */
export interface SharedRevocations {
  /** Records a sign-out until `until` (epoch ms); false when it could not be written. */
  put(sessionId: string, until: number): Promise<boolean>;
  /** Whether a sign-out is recorded and not expired; undefined when the place could not be asked. */
  has(sessionId: string): Promise<boolean | undefined>;
  /** Calls `listener` each time the place answers again after an outage. */
  whenRecovered(listener: () => void): void;
}

const KEY_PREFIX = "hub-console:revoked-session:";

/** Sign-outs on Redis: a key per session that expires with it. */
export function redisRevocations(redis: SharedRedis): SharedRevocations {
  return {
    async put(sessionId, until) {
      const ms = until - Date.now();
      return ms <= 0 || (await redis.run((c) => c.set(KEY_PREFIX + sessionId, "1", "PX", ms))) !== undefined;
    },
    async has(sessionId) {
      const found = await redis.run((client) => client.exists(KEY_PREFIX + sessionId));
      return found === undefined ? undefined : found === 1;
    },
    whenRecovered: (listener) => redis.whenRecovered(listener),
  };
}

export class Revocations {
  /** id → until (epoch ms). */
  private readonly local = new Map<string, number>();
  /** Recorded here but not yet written to the shared place. */
  private readonly unshared = new Map<string, number>();

  constructor(private readonly shared: SharedRevocations | null) {
    // The place may have come back empty (Redis without persistence): write everything recorded here.
    shared?.whenRecovered(() => {
      for (const [id, until] of this.local) this.unshared.set(id, until);
      void this.share();
    });
  }

  async revoke(sessionId: string, until: number): Promise<void> {
    const now = Date.now();
    if (until <= now) return;
    for (const [id, end] of this.local) if (end <= now) this.local.delete(id);
    this.local.set(sessionId, until);
    if (!this.shared) return;
    this.unshared.set(sessionId, until);
    await this.share();
  }

  async isRevoked(sessionId: string): Promise<boolean> {
    const until = this.local.get(sessionId);
    if (until !== undefined) {
      if (until > Date.now()) return true;
      this.local.delete(sessionId);
    }
    if (!this.shared) return false;
    return (await this.shared.has(sessionId)) === true;
  }

  /** How many sign-outs wait for the shared place to come back. */
  waitingToShare(): number {
    return this.unshared.size;
  }

  /** Writes what waits (writing one twice is harmless); stops at the first failure, retried on recovery. */
  private async share(): Promise<void> {
    for (const [id, until] of this.unshared) {
      if (until > Date.now() && !(await this.shared!.put(id, until))) return;
      this.unshared.delete(id);
    }
  }
}

const globalForRevocations = globalThis as typeof globalThis & {
  __hubConsoleRevocations?: { redis: SharedRedis | null; revocations: Revocations };
};

/**
 * The process's revocation list (one for every route bundle): shared on the configured Redis,
 * else in the console's database.
 */
export function sessionRevocations(): Revocations {
  const redis = sharedRedis();
  const current = globalForRevocations.__hubConsoleRevocations;
  if (current?.redis === redis) return current.revocations;
  const revocations = new Revocations(redis ? redisRevocations(redis) : new DatabaseRevocations());
  globalForRevocations.__hubConsoleRevocations = { redis, revocations };
  return revocations;
}
