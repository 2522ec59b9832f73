import "server-only";
import type { WebhookLog } from "@/lib/domain/hub-schemas";

/**
 * The logs of one webhook read so far, newest first, without duplicates, and what they weigh.
 * Log `i` of the sequence is `logs[i - base]`: a window that does not retain drops the logs
 * every reader has consumed, and `base` counts them. A retaining window keeps every log (for the
 * next question) while under `maxBytes`; past it, it stops retaining, once.
 */

/** Rough memory of a parsed log: its strings plus object overhead. */
function sizeOf(log: WebhookLog): number {
  return 600 + log.responseBody.length + log.webhook.endpoint.length;
}

export class LogWindow {
  private logs: WebhookLog[] = [];
  private readonly ids = new Set<string>();
  /** Index of `logs[0]` in the sequence. */
  private base = 0;
  private bytes = 0;
  retain: boolean;

  constructor(
    private readonly budget: {
      retain: boolean;
      maxBytes: number;
      /** Called once, when a retaining window grows past `maxBytes` and stops retaining. */
      onStopRetaining?: () => void;
    },
  ) {
    this.retain = budget.retain;
  }

  /** Memory the logs held take, roughly, in bytes. */
  get size(): number {
    return this.bytes;
  }

  /** Index of the first log still held (0 while none was dropped). */
  get start(): number {
    return this.base;
  }

  /** Index after the last log held: how many logs the sequence has. */
  get end(): number {
    return this.base + this.logs.length;
  }

  get newest(): WebhookLog | undefined {
    return this.base === 0 ? this.logs[0] : undefined;
  }

  /** Logs of indices [from, until), as many as are held. */
  slice(from: number, until: number): WebhookLog[] {
    return this.logs.slice(from - this.base, until - this.base);
  }

  /** Adds an older log; false (and nothing added) when its id is known. */
  append(log: WebhookLog): boolean {
    if (this.ids.has(log.id)) return false;
    this.ids.add(log.id);
    this.logs.push(log);
    this.bytes += sizeOf(log);
    if (this.retain && this.bytes > this.budget.maxBytes) {
      this.retain = false;
      this.budget.onStopRetaining?.();
    }
    return true;
  }

  /** Adds logs newer than every one held (newest first); only for a window that dropped none. */
  prepend(fresh: WebhookLog[]): void {
    for (const log of fresh) {
      this.ids.add(log.id);
      this.bytes += sizeOf(log);
    }
    this.logs.unshift(...fresh);
  }

  /** A window that does not retain forgets the logs before `index` (every reader is past them). */
  dropBefore(index: number): void {
    if (this.retain) return;
    const drop = Math.min(index, this.end) - this.base;
    if (drop <= 0) return;
    for (const log of this.logs.splice(0, drop)) {
      this.ids.delete(log.id);
      this.bytes -= sizeOf(log);
    }
    this.base += drop;
  }
}
