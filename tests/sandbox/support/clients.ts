/**
 * Clients for tests: the sandbox's admin routes, and the spec's routes with an API key.
 * Plain fetch; answers are returned raw (status + parsed JSON) for the tests to check.
 */
import { webhookLogPageSchema, type WebhookLogPage } from "../../../lib/domain/hub-schemas";

export interface JsonAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export async function requestJson<T = unknown>(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<JsonAnswer<T>> {
  const headers: Record<string, string> = { accept: "application/json", ...init.headers };
  let body: string | undefined;
  if (init.body !== undefined) {
    headers["content-type"] ??= "application/json";
    body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
  }
  const response = await fetch(url, { method: init.method ?? "GET", headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === "" ? null : JSON.parse(text);
  } catch {
    // not JSON: keep the text, the test will say so
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export interface CreatedApplication {
  id: string;
  name: string;
  apiKey: string;
}

export interface AdminWebhook {
  id: string;
  endpoint: string;
  eventType: string;
  active: boolean;
  numberOfErrors: number;
  secret: string;
}

/** The sandbox's `/_sandbox/*` routes; every call must succeed (2xx) or it throws with the answer. */
export class SandboxAdmin {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = this.token ? { authorization: `Bearer ${this.token}` } : {};
    // A state-changing admin call is JSON even without a body (lib/sandbox/auth.ts).
    if (method !== "GET") headers["content-type"] = "application/json";
    const answer = await requestJson<T>(`${this.baseUrl}${path}`, { method, headers, body });
    if (answer.status < 200 || answer.status >= 300) {
      throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    return answer.body;
  }

  createApplication(name = "test application") {
    return this.call<CreatedApplication>("POST", "/_sandbox/applications", { name });
  }

  rotateKey(applicationId: string) {
    return this.call<{ apiKey: string }>("POST", `/_sandbox/applications/${applicationId}/api-key`);
  }

  createChannel(applicationId: string, kind = "whatsapp") {
    return this.call<{ id: string; kind: string }>(
      "POST",
      `/_sandbox/applications/${applicationId}/channels`,
      { kind },
    );
  }

  createWebhook(
    applicationId: string,
    webhook: {
      endpoint: string;
      eventType?: string;
      active?: boolean;
      secret?: string;
      description?: string;
    },
  ) {
    return this.call<AdminWebhook>("POST", `/_sandbox/applications/${applicationId}/webhooks`, {
      eventType: "Message",
      active: true,
      ...webhook,
    });
  }

  listWebhooks(applicationId: string) {
    return this.call<{ data: AdminWebhook[] }>("GET", `/_sandbox/applications/${applicationId}/webhooks`);
  }

  patchWebhook(webhookId: string, patch: { active?: boolean; endpoint?: string }) {
    return this.call<AdminWebhook>("PATCH", `/_sandbox/webhooks/${webhookId}`, patch);
  }

  stats() {
    return this.call<{
      messages: number;
      queuedDeliveries: number;
      inFlightDeliveries: number;
      logs: number;
    }>("GET", "/_sandbox/stats");
  }

  /** An application with one channel: what most tests start from. */
  async application(kind = "whatsapp") {
    const app = await this.createApplication();
    const channel = await this.createChannel(app.id, kind);
    return { ...app, channel };
  }
}

/** The spec's routes, called with one API key. */
export class HubApi {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string | undefined,
  ) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.apiKey === undefined ? extra : { "x-api-key": this.apiKey, ...extra };
  }

  getWebhook(webhookId: string) {
    return requestJson(`${this.baseUrl}/v1/organization/webhook/${webhookId}`, { headers: this.headers() });
  }

  listLogs(webhookId: string, query: Record<string, string | number> | string = {}) {
    const search =
      typeof query === "string"
        ? query
        : new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return requestJson(
      `${this.baseUrl}/v1/organization/webhook/${webhookId}/webhook-log${search ? `?${search}` : ""}`,
      {
        headers: this.headers(),
      },
    );
  }

  /** One page of the webhook's logs, parsed; throws unless the answer is 200. */
  async logPage(
    webhookId: string,
    query: Record<string, string | number> | string = {},
  ): Promise<WebhookLogPage> {
    const answer = await this.listLogs(webhookId, query);
    if (answer.status !== 200) {
      throw new Error(
        `listing the logs of ${webhookId} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
      );
    }
    return webhookLogPageSchema.parse(answer.body);
  }

  send(channelKind: string, body: unknown, headers: Record<string, string> = {}) {
    return requestJson(`${this.baseUrl}/v1/communication/${channelKind}/message`, {
      method: "POST",
      headers: this.headers(headers),
      body,
    });
  }
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
