import "server-only";
import { sharedRedis, type SharedRedis } from "@/lib/server/shared-state/redis";

/**
 * Sessions signed out before they expired, by session id, each kept until the session would
 * have expired anyway. Always held in this process's memory (so the instance that recorded a
 * sign-out refuses that cookie at once, Redis or not) and, with Redis, shared with every
 * instance. While Redis is unreachable the check fails open (only this instance's own
 * sign-outs are refused: the hub still checks the API key on every call); when it returns, every
 * sign-out this instance holds is written again (a restarted Redis may have lost them).
 */

const KEY_PREFIX = "hub-console:revoked-session:";

export class Revocations {
  /** id → until (epoch ms). */
  private readonly local = new Map<string, number>();
  /** Recorded here but not yet written to Redis. */
  private readonly unshared = new Map<string, number>();

  constructor(private readonly shared: SharedRedis | null) {
    // Redis may have come back empty (no persistence): write everything this instance recorded.
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
    return (await this.shared.run((client) => client.exists(KEY_PREFIX + sessionId))) === 1;
  }

  /** How many sign-outs wait for Redis to come back. */
  waitingToShare(): number {
    return this.unshared.size;
  }

  /** Writes what waits to Redis (writing one twice is harmless); stops at the first failure, retried on recovery. */
  private async share(): Promise<void> {
    for (const [id, until] of this.unshared) {
      const ms = until - Date.now();
      if (ms > 0 && (await this.shared!.run((c) => c.set(KEY_PREFIX + id, "1", "PX", ms))) === undefined)
        return;
      this.unshared.delete(id);
    }
  }
}

const globalForRevocations = globalThis as typeof globalThis & {
  __hubConsoleRevocations?: { shared: SharedRedis | null; revocations: Revocations };
};

/** The process's revocation list (one for every route bundle), on the configured Redis if any. */
export function sessionRevocations(): Revocations {
  const shared = sharedRedis();
  const current = globalForRevocations.__hubConsoleRevocations;
  if (current?.shared === shared) return current.revocations;
  const revocations = new Revocations(shared);
  globalForRevocations.__hubConsoleRevocations = { shared, revocations };
  return revocations;
}
