/**
 * The delivery worker: sends every queued delivery to its webhook's endpoint and records the log.
 *
 * - Bounded: at most `concurrency` attempts in flight, and at most `perWebhookConcurrency` to one
 *   webhook, taken round-robin across webhooks, so one hanging endpoint cannot starve the rest.
 * - No loss: the queue lives in SQLite. At start every delivery still `queued` (never attempted,
 *   or attempted when the process died before its log was committed) is sent. The log, the
 *   delivery's completion and the webhook's counters commit together (store.recordLog), and
 *   the log's UNIQUE delivery_id means a delivery can never be logged twice. So: every
 *   delivery ends with exactly one log; an endpoint may see a delivery twice after a crash
 *   (at-least-once delivery, exactly-once log).
 */
import { attemptDelivery } from "./attempt";
import { SECRET_HEADER } from "./receivers";
import type { DeliveryJob, Store } from "./store";

export interface DeliveryWorkerOptions {
  store: Store;
  timeoutMs: number;
  concurrency: number;
  perWebhookConcurrency: number;
  log: (line: string) => void;
}

/** The JSON body POSTed to the endpoint (documented in lib/sandbox/README.md). */
function eventPayload(job: DeliveryJob) {
  return {
    eventType: job.eventType,
    messageId: job.messageId,
    webhookId: job.webhookId,
    occurredAt: job.messageCreatedDate,
    channel: { id: job.channelId, kind: job.channelKind },
    from: job.channelId,
    to: job.to,
    content: job.content,
  };
}

const USER_AGENT = "MessagingHubSandbox/1.0";

interface WebhookQueue {
  webhookId: string;
  /** Loaded queued delivery ids, oldest first, not yet started. */
  ids: number[];
  /** Largest delivery id loaded so far. */
  cursor: number;
  /** No queued row past `cursor` at the last load (until notified again). */
  drained: boolean;
  inFlight: number;
}

const LOAD_BATCH = 200;
const RETRY_AFTER_ERROR_MS = 1000;

export class DeliveryWorker {
  private readonly queues = new Map<string, WebhookQueue>();
  private readonly running = new Set<Promise<void>>();
  /** Delivery ids being attempted, so one is never attempted twice at once. */
  private readonly attempting = new Set<number>();
  private readonly shutdown = new AbortController();
  private idleWaiters: Array<() => void> = [];
  private inFlight = 0;
  /** Deliveries waiting to be tried again after an unexpected error. */
  private retrying = 0;
  private stopping = false;

  constructor(private readonly options: DeliveryWorkerOptions) {}

  /** Picks up every delivery left queued in the database (by a crash or a stop). */
  start(): void {
    this.notify(this.options.store.queuedWebhookIds());
  }

  /** New deliveries were queued (committed) for these webhooks. */
  notify(webhookIds: Iterable<string>): void {
    for (const webhookId of webhookIds) this.queueOf(webhookId).drained = false;
    this.pump();
  }

  private queueOf(webhookId: string): WebhookQueue {
    let queue = this.queues.get(webhookId);
    if (!queue) {
      queue = { webhookId, ids: [], cursor: 0, drained: false, inFlight: 0 };
      this.queues.set(webhookId, queue);
    }
    return queue;
  }

  get inFlightCount(): number {
    return this.inFlight;
  }

  /** Resolves when nothing is queued or in flight. */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops starting attempts, lets those in flight finish for up to `graceMs`, then aborts the
   * rest; an aborted delivery stays queued and is sent at the next start.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.running.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.allSettled([...this.running]), grace]);
      clearTimeout(timer);
    }
    this.shutdown.abort();
    await Promise.allSettled([...this.running]);
    this.releaseIdleWaiters();
  }

  private isIdle(): boolean {
    if (this.inFlight > 0 || this.retrying > 0) return false;
    for (const queue of this.queues.values()) if (queue.ids.length > 0 || !queue.drained) return false;
    return true;
  }

  private releaseIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Starts attempts until the limits are reached or nothing is left, round-robin over webhooks. */
  private pump(): void {
    if (this.stopping) return;
    const { concurrency, perWebhookConcurrency } = this.options;
    let started = true;
    while (started && this.inFlight < concurrency) {
      started = false;
      for (const queue of this.queues.values()) {
        if (this.inFlight >= concurrency) break;
        if (queue.inFlight >= perWebhookConcurrency) continue;
        const deliveryId = this.next(queue);
        if (deliveryId === undefined) continue;
        this.launch(queue, deliveryId);
        started = true;
      }
    }
    for (const [webhookId, queue] of this.queues) {
      if (queue.drained && queue.ids.length === 0 && queue.inFlight === 0) this.queues.delete(webhookId);
    }
    if (this.isIdle()) this.releaseIdleWaiters();
  }

  private next(queue: WebhookQueue): number | undefined {
    for (;;) {
      if (queue.ids.length === 0 && !queue.drained) {
        const ids = this.options.store.queuedDeliveryIds(queue.webhookId, queue.cursor, LOAD_BATCH);
        queue.ids.push(...ids);
        queue.cursor = ids.at(-1) ?? queue.cursor;
        queue.drained = ids.length < LOAD_BATCH;
      }
      const id = queue.ids.shift();
      if (id === undefined || !this.attempting.has(id)) return id;
    }
  }

  private launch(queue: WebhookQueue, deliveryId: number): void {
    queue.inFlight++;
    this.inFlight++;
    this.attempting.add(deliveryId);
    const run: Promise<void> = this.deliver(deliveryId)
      .catch((error: unknown) => this.retryLater(queue.webhookId, deliveryId, error))
      .finally(() => {
        queue.inFlight--;
        this.inFlight--;
        this.attempting.delete(deliveryId);
        this.running.delete(run);
        this.pump();
      });
    this.running.add(run);
  }

  /** An unexpected error (the database, not the endpoint): the delivery is tried again in a second. */
  private retryLater(webhookId: string, deliveryId: number, error: unknown): void {
    if (this.stopping) return; // it stays queued in the database and is sent at the next start
    const reason = error instanceof Error ? error.message : String(error);
    this.options.log(
      `sandbox: delivery ${deliveryId} could not be recorded (${reason}); trying again in 1 s`,
    );
    this.retrying++;
    setTimeout(() => {
      this.retrying--;
      const queue = this.queueOf(webhookId);
      // A queue dropped meanwhile is recreated with cursor 0 and reloads the id from the database.
      if (deliveryId <= queue.cursor) queue.ids.unshift(deliveryId);
      this.pump();
    }, RETRY_AFTER_ERROR_MS).unref();
  }

  private async deliver(deliveryId: number): Promise<void> {
    const { store, timeoutMs } = this.options;
    const job = store.claimDelivery(deliveryId);
    if (!job) return; // already done
    const sendAt = new Date().toISOString();
    const outcome = await attemptDelivery({
      endpoint: job.endpoint,
      headers: {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        [SECRET_HEADER]: job.secret,
        "x-webhook-event": job.eventType,
      },
      body: JSON.stringify(eventPayload(job)),
      timeoutMs,
      shutdown: this.shutdown.signal,
    });
    if (outcome.kind === "interrupted") return;
    const success = outcome.statusCode >= 200 && outcome.statusCode < 300;
    store.recordLog({
      webhookId: job.webhookId,
      deliveryId,
      messageId: job.messageId,
      statusCode: outcome.statusCode,
      responseBody: outcome.responseBody,
      status: success ? "Success" : "Failed",
      sendAt,
      createdDate: new Date().toISOString(),
    });
  }
}
