import "server-only";

type Log = Pick<Console, "info" | "error">;

/**
 * Whether a shared place the console asks during requests (Redis, the console's database) answers:
 * after a failed call it is not asked again for `pauseMs` (a hung one costs one timeout per pause),
 * the outage and the recovery are each logged once, and listeners hear of each recovery.
 */
export class Outage {
  state: "connecting" | "up" | "down" = "connecting";
  private pausedUntil = 0;
  private readonly onRecovery = new Set<() => void>();

  constructor(
    private readonly log: Log,
    private readonly lines: { first?: string; down: (reason: string) => string; recovered: string },
    private readonly pauseMs: number,
  ) {}

  /** True during the pause after a failure. */
  paused(): boolean {
    return Date.now() < this.pausedUntil;
  }

  /** Ends the pause (a check that answered). */
  resume(): void {
    this.pausedUntil = 0;
  }

  /** Runs one call; undefined while paused, or when it failed (then paused, and logged once per outage). */
  async run<T>(call: () => Promise<T>): Promise<T | undefined> {
    if (this.paused()) return undefined;
    try {
      const result = await call();
      this.up();
      return result;
    } catch (error) {
      this.pausedUntil = Date.now() + this.pauseMs;
      this.down(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }

  up(): void {
    if (this.state === "up") return;
    const recovered = this.state === "down";
    this.state = "up";
    if (recovered) {
      this.log.info(this.lines.recovered);
      for (const listener of this.onRecovery) listener();
    } else if (this.lines.first) {
      this.log.info(this.lines.first);
    }
  }

  down(reason: string): void {
    if (this.state === "down") return;
    this.state = "down";
    this.log.error(this.lines.down(reason));
  }

  /** Called each time the place answers again after an outage. */
  whenRecovered(listener: () => void): void {
    this.onRecovery.add(listener);
  }

  forgetListeners(): void {
    this.onRecovery.clear();
  }
}
