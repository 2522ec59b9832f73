/**
 * TEST ONLY. A Messaging Hub held in memory on the fake upstream (tests/support/fake-upstream.ts):
 * webhooks and their logs (newest first, paged as the spec says), one API key, and a hook to
 * answer some requests otherwise (429, garbage). Every request is recorded by the fake upstream.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { sendJson, startFakeUpstream, type FakeUpstream } from "@/tests/support/fake-upstream";

export interface MemoryWebhook {
  id: string;
  endpoint: string;
  eventType: string;
  active: boolean;
  numberOfErrors: number;
  /** Newest first. */
  logs: WebhookLog[];
}

export interface MemoryHub {
  upstream: FakeUpstream;
  url: string;
  apiKey: string;
  webhooks: Map<string, MemoryWebhook>;
  /** Adds a webhook with no logs. */
  webhook(): MemoryWebhook;
  /** Adds `count` logs (the last one newest), `failed` deciding each log's outcome. */
  deliver(webhook: MemoryWebhook, count: number, failed?: (index: number) => boolean): void;
  /** Answers a request itself when it returns true. */
  intercept: ((req: IncomingMessage, res: ServerResponse) => boolean) | null;
  close(): Promise<void>;
}

export async function startMemoryHub(): Promise<MemoryHub> {
  const webhooks = new Map<string, MemoryWebhook>();
  let clock = Date.now() - 3_600_000;
  const hub: MemoryHub = {
    upstream: await startFakeUpstream(),
    url: "",
    apiKey: `memory-key-${randomUUID()}`,
    webhooks,
    intercept: null,
    webhook() {
      const id = randomUUID();
      const webhook = {
        id,
        endpoint: `https://example.test/${id}`,
        eventType: "Message",
        active: true,
        numberOfErrors: 0,
        logs: [],
      };
      webhooks.set(id, webhook);
      return webhook;
    },
    deliver(webhook, count, failed = () => false) {
      for (let i = 0; i < count; i++) {
        const at = new Date((clock += 10)).toISOString();
        const isFailed = failed(i);
        if (isFailed) webhook.numberOfErrors++;
        webhook.logs.unshift({
          id: randomUUID(),
          webhookId: webhook.id,
          statusCode: isFailed ? 500 : 200,
          responseBody: isFailed ? "oops" : "ok",
          status: isFailed ? "Failed" : "Success",
          sendAt: at,
          createdDate: at,
          messageId: randomUUID(),
          webhook: { id: webhook.id, endpoint: webhook.endpoint, eventType: webhook.eventType },
        });
      }
    },
    close: () => hub.upstream.close(),
  };
  hub.url = hub.upstream.url;
  hub.upstream.handle = (req, res) => {
    if (hub.intercept?.(req, res)) return;
    if (req.headers["x-api-key"] !== hub.apiKey) return sendJson(res, 401, { error: "invalid key" });
    const url = new URL(req.url ?? "/", "http://hub");
    const match = /^\/v1\/organization\/webhook\/([^/]+)(\/webhook-log)?$/.exec(url.pathname);
    const webhook = match ? webhooks.get(match[1]!) : undefined;
    if (!webhook) return sendJson(res, 404, { error: "not found" });
    const { logs, ...fields } = webhook;
    if (!match![2]) return sendJson(res, 200, fields);
    const offset = Number(url.searchParams.get("offset") ?? 0);
    const limit = Number(url.searchParams.get("limit") ?? 20);
    sendJson(res, 200, {
      data: logs.slice(offset, offset + limit),
      pagination: { offset, limit, total: logs.length, totalPages: Math.ceil(logs.length / limit) },
    });
  };
  return hub;
}
