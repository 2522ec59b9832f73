import "server-only";
import http from "node:http";
import https from "node:https";
import { z } from "zod";
import { parseRetryAfter } from "@/lib/domain/retry-after";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import {
  channelKindSchema,
  idSchema,
  webhookLogPageSchema,
  webhookSchema,
  type SendMessage,
  type Webhook,
  type WebhookLogPage,
  type WebhookLogQuery,
} from "@/lib/domain/hub-schemas";

/**
 * The server-only client of the Messaging Hub API. It adds `x-api-key`, bounds each call by
 * HUB_TIMEOUT_MS and the caller's own signal, caps the answer's size, parses every answer with
 * the spec's zod schemas, and turns every failure into one AppError with a message for a person.
 */

/** Who is calling and when to give up. */
export interface HubCall {
  /** Sent as `x-api-key`; empty for the sandbox's admin routes, which take none. */
  apiKey: string;
  /** Aborted when the browser goes away: the upstream call is cancelled too. */
  signal?: AbortSignal;
}

/** Larger answers are refused (502) rather than buffered without bound. */
export const MAX_UPSTREAM_BODY_BYTES = 8 * 1024 * 1024;

interface RequestSpec<S extends z.ZodType> {
  method?: "GET" | "POST";
  path: string;
  /** Extra request headers (the sandbox admin token). */
  headers?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  schema: S;
  /** What a 404 means for this call, said to a person. */
  notFound: string;
  /**
   * What a 401/403 means, when it is not "your API key was rejected". Such an answer is
   * `upstream_error` (502), not `unauthorized`, so it does not end the person's session.
   */
  unauthorized?: string;
}

/**
 * A path segment, checked again here (routes already parse them) so that no caller can make the
 * client request another path: ids are UUIDs, channel kinds `[a-z][a-z0-9-]*`.
 */
function segment(value: string, schema: z.ZodType<string>, name: string): string {
  if (!schema.safeParse(value).success) {
    throw new AppError("bad_request", `The ${name} is not valid; nothing was sent to the Messaging Hub.`, {
      fields: { [name]: ["is not valid"] },
    });
  }
  return encodeURIComponent(value);
}

/** What a 404 on a webhook's paths means, said to a person. */
function webhookNotFound(webhookId: string): string {
  return `No webhook ${webhookId} was found for this API key. Check the ID, or sign in with the key of the application that owns it.`;
}

export async function getWebhook(call: HubCall, webhookId: string): Promise<Webhook> {
  return hubRequest(call, {
    path: `/v1/organization/webhook/${segment(webhookId, idSchema, "webhookId")}`,
    schema: webhookSchema,
    notFound: webhookNotFound(webhookId),
  });
}

export async function listWebhookLogs(
  call: HubCall,
  webhookId: string,
  query: WebhookLogQuery,
): Promise<WebhookLogPage> {
  return hubRequest(call, {
    path: `/v1/organization/webhook/${segment(webhookId, idSchema, "webhookId")}/webhook-log`,
    query: { offset: query.offset, limit: query.limit, status: query.status },
    schema: webhookLogPageSchema,
    notFound: webhookNotFound(webhookId),
  });
}

/** The spec does not show the success body of a send; whatever object it is, it is kept. */
const sendMessageAnswerSchema = z.union([z.looseObject({}), z.null()]);

export interface SendMessageResult {
  /** The answer as the hub gave it (an object), or null when it had no body. */
  answer: Record<string, unknown> | null;
  /** The message id, when the answer names one (`messageId`, or `id`). */
  messageId: string | null;
}

export async function sendMessage(
  call: HubCall,
  channelKind: string,
  message: SendMessage,
): Promise<SendMessageResult> {
  const answer = await hubRequest(call, {
    method: "POST",
    path: `/v1/communication/${segment(channelKind, channelKindSchema, "channelKind")}/message`,
    body: message,
    schema: sendMessageAnswerSchema,
    notFound:
      `The channel ${message.from} was not found for this API key (or is not a "${channelKind}" channel). ` +
      `Check the channel ID and kind; a channel must belong to the key's application.`,
  });
  return { answer, messageId: messageIdOf(answer) };
}

/**
 * Retry of one delivery. The spec says a log's `id` is "used for retry" but shows neither the
 * path nor the payload (spec 4.4), so this answers 501 today. When the API documents it:
 * replace the throw with
 *   `return hubRequest(call, { method: "POST", path: <the path>, schema: <its answer>, notFound: … })`
 * and the route, the UI's Retry button and the tests that expect 501 are all that change.
 */
export async function retryWebhookLog(call: HubCall, webhookId: string, logId: string): Promise<never> {
  void call;
  void webhookId;
  void logId;
  throw new AppError(
    "not_supported",
    "The Messaging Hub API does not offer retry yet: its documentation names no path for it. " +
      "The delivery log stays as it is; to deliver again, send a new test message.",
  );
}

/** `GET /_sandbox/demo` of the local sandbox (not part of the spec): the demo key and what it can see. */
const sandboxDemoSchema = z.looseObject({
  apiKey: z.string().min(1),
  channels: z.array(z.looseObject({ id: z.string(), kind: z.string() })).default([]),
  webhooks: z
    .array(
      z.looseObject({
        id: z.string(),
        endpoint: z.string(),
        eventType: z.string().default("Message"),
        active: z.boolean().default(true),
        label: z.string().optional(),
      }),
    )
    .default([]),
});
export type SandboxDemoAnswer = z.infer<typeof sandboxDemoSchema>;

/**
 * The sandbox's demo data, its API key included, fetched server-side from its admin route
 * (Bearer SANDBOX_ADMIN_TOKEN when set). Only for sandbox mode: callers check that first.
 */
export async function fetchSandboxDemo(signal?: AbortSignal): Promise<SandboxDemoAnswer> {
  const { sandboxAdminToken } = serverConfig();
  return hubRequest(
    { apiKey: "", signal },
    {
      path: "/_sandbox/demo",
      headers: sandboxAdminToken ? { authorization: `Bearer ${sandboxAdminToken}` } : undefined,
      schema: sandboxDemoSchema,
      notFound:
        "The sandbox has no demo data (it was started with SANDBOX_SEED=none). Restart it with SANDBOX_SEED=demo, or sign in with a key.",
      unauthorized:
        "The sandbox refused the console's admin token. Set SANDBOX_ADMIN_TOKEN to the same value for the console and the sandbox.",
    },
  );
}

function messageIdOf(answer: Record<string, unknown> | null): string | null {
  for (const candidate of [answer?.messageId, answer?.id]) {
    if (idSchema.safeParse(candidate).success) return candidate as string;
  }
  return null;
}

async function hubRequest<S extends z.ZodType>(call: HubCall, spec: RequestSpec<S>): Promise<z.infer<S>> {
  const { hubBaseUrl, hubTimeoutMs } = serverConfig();
  if (!hubBaseUrl) {
    throw new AppError(
      "upstream_unreachable",
      "No Messaging Hub is configured (HUB_BASE_URL is not set). " +
        "Start the console with `npm start`, which runs the local sandbox, or set HUB_BASE_URL to the API's address.",
    );
  }
  const url = new URL(hubBaseUrl + spec.path);
  for (const [name, value] of Object.entries(spec.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }

  const timeout = AbortSignal.timeout(hubTimeoutMs);
  const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
  const headers: Record<string, string> = { ...spec.headers, accept: "application/json" };
  if (call.apiKey) headers["x-api-key"] = call.apiKey;
  if (spec.body !== undefined) headers["content-type"] = "application/json";

  let response: UpstreamAnswer;
  try {
    response = await send(url, {
      method: spec.method ?? "GET",
      headers,
      body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
      signal,
    });
  } catch (error) {
    throw transportError(error, timeout, call.signal, hubTimeoutMs);
  }
  const { text } = response;

  if (!response.ok) throw statusError(response, text, spec, call.apiKey);
  return parseAnswer(text, spec.schema);
}

/** An upstream answer: what statusError and parseAnswer need of it. */
interface UpstreamAnswer {
  status: number;
  ok: boolean;
  headers: { get(name: string): string | null };
  text: string;
}

/**
 * Keep-alive connections to the hub, shared by all requests of this process. node:http rather
 * than fetch: fetch (undici) costs about 1 ms of CPU more per call in Web-stream and
 * Request/Response objects, a fifth of an API request (README, "Benchmark").
 */
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/**
 * One request: the answer's status, headers and body as UTF-8 text, refusing a body past
 * MAX_UPSTREAM_BODY_BYTES (on Content-Length first, then while reading; the socket is destroyed,
 * never buffered whole). Redirects are not followed. `signal` aborts it and closes the socket.
 */
function send(
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal },
): Promise<UpstreamAnswer> {
  // A GET may ride a kept-alive connection; if the hub closed that connection just as it was
  // reused (its idle timeout), the GET is sent once more on a fresh one, as Node's docs advise.
  // A POST is not repeatable, so it always opens its own connection and never meets that race.
  const repeatable = init.method === "GET";
  return sendOnce(url, init, repeatable).catch((error: unknown) => {
    if (repeatable && isStaleConnection(error) && !init.signal.aborted) return sendOnce(url, init, false);
    throw error;
  });
}

/** The error of a request whose kept-alive connection the other side had already closed. */
class StaleConnectionError extends Error {}

function isStaleConnection(error: unknown): boolean {
  return error instanceof StaleConnectionError;
}

function sendOnce(
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal },
  reuse: boolean,
): Promise<UpstreamAnswer> {
  const secure = url.protocol === "https:";
  return new Promise((resolve, reject) => {
    const agent = reuse ? agents[secure ? "https:" : "http:"] : false;
    let answered = false;
    const req = (secure ? https : http).request(
      url,
      { method: init.method, headers: init.headers, signal: init.signal, agent },
      (res) => {
        answered = true;
        const status = res.statusCode ?? 0;
        const header = (name: string) => {
          const value = res.headers[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
        };
        const fail = (error: Error) => {
          res.destroy();
          reject(error);
        };
        if (Number(header("content-length")) > MAX_UPSTREAM_BODY_BYTES) return fail(tooLarge());
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_UPSTREAM_BODY_BYTES) return fail(tooLarge());
          chunks.push(chunk);
        });
        res.on("end", () =>
          resolve({
            status,
            ok: status >= 200 && status < 300,
            headers: { get: header },
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      const closedUnderUs =
        req.reusedSocket && !answered && (error.code === "ECONNRESET" || error.code === "EPIPE");
      reject(closedUnderUs ? new StaleConnectionError(error.message, { cause: error }) : error);
    });
    req.end(init.body);
  });
}

function tooLarge(): AppError {
  return new AppError(
    "upstream_invalid",
    `The Messaging Hub sent an answer larger than ${MAX_UPSTREAM_BODY_BYTES / 1024 / 1024} MiB, which the console refuses. Ask for fewer rows per page.`,
  );
}

function transportError(
  error: unknown,
  timeout: AbortSignal,
  clientSignal: AbortSignal | undefined,
  timeoutMs: number,
): AppError {
  if (error instanceof AppError) return error;
  if (timeout.aborted) {
    return new AppError(
      "upstream_timeout",
      `The Messaging Hub did not answer within ${timeoutMs / 1000} s. It may be slow or overloaded; try again in a moment.`,
      { cause: error },
    );
  }
  if (clientSignal?.aborted) {
    return new AppError("bad_request", "The request was cancelled by the client.", { cause: error });
  }
  return new AppError(
    "upstream_unreachable",
    "The Messaging Hub could not be reached. Check that it is running and that HUB_BASE_URL is right, then try again.",
    { cause: error },
  );
}

function statusError(
  response: UpstreamAnswer,
  text: string,
  spec: Pick<RequestSpec<z.ZodType>, "notFound" | "unauthorized">,
  apiKey: string,
): AppError {
  const status = response.status;
  if ((status === 401 || status === 403) && spec.unauthorized)
    return new AppError("upstream_error", spec.unauthorized);
  if (status === 401) {
    return new AppError(
      "unauthorized",
      "The Messaging Hub rejected your API key: it may be wrong, or it was rotated or revoked. Sign in again with a current key.",
    );
  }
  // Not the spec's "key rejected" (that is 401): a permission or firewall refusal. The key still
  // works elsewhere, so the session stays.
  if (status === 403) {
    return new AppError(
      "forbidden",
      "The Messaging Hub refused this request (HTTP 403): your API key may not have access to it, or a firewall blocked the call. " +
        "Check the key's permissions with the hub's owner.",
    );
  }
  if (status === 404) return new AppError("not_found", spec.notFound);
  if (status === 429) {
    const retryAfter = retryAfterSeconds(response.headers.get("retry-after"));
    return new AppError(
      "rate_limited",
      `The Messaging Hub is limiting requests. Wait ${retryAfter} s and try again.`,
      { retryAfter },
    );
  }
  if (status === 400 || status === 422) {
    const detail = upstreamMessage(text, apiKey);
    return new AppError(
      "bad_request",
      `The Messaging Hub refused the request${detail ? `: ${detail}` : "."}`,
    );
  }
  if (status >= 500) {
    return new AppError(
      "upstream_error",
      `The Messaging Hub failed with HTTP ${status}. Try again in a moment; if it keeps failing, the hub itself has a problem.`,
    );
  }
  return new AppError(
    "upstream_error",
    `The Messaging Hub answered with an unexpected HTTP ${status}. Try again; if it persists, report it.`,
  );
}

/** The hub's Retry-After in seconds, 1 s to an hour; 5 s when it gives none. */
function retryAfterSeconds(header: string | null): number {
  const seconds = parseRetryAfter(header);
  return seconds === null ? 5 : Math.min(Math.max(1, seconds), 3600);
}

const upstreamErrorSchema = z.looseObject({
  error: z.union([z.looseObject({ message: z.string() }), z.string()]).optional(),
  message: z.string().optional(),
});

/** A short, key-free reason from an upstream error answer, when it gives one. */
function upstreamMessage(text: string, apiKey: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const result = upstreamErrorSchema.safeParse(parsed);
  if (!result.success) return null;
  const { error, message } = result.data;
  const raw = typeof error === "string" ? error : (error?.message ?? message);
  if (!raw) return null;
  const scrubbed = apiKey ? raw.split(apiKey).join("[key]") : raw;
  // Control characters out, length bounded: this text is shown to a person.
  return scrubbed.replace(/[\u0000-\u001f\u007f]+/g, " ").slice(0, 300);
}

function parseAnswer<S extends z.ZodType>(text: string, schema: S): z.infer<S> {
  let json: unknown = null;
  if (text.trim() !== "") {
    try {
      json = JSON.parse(text);
    } catch {
      throw new AppError(
        "upstream_invalid",
        "The Messaging Hub answered with something that is not JSON. Try again; if it persists, check HUB_BASE_URL points at the API.",
      );
    }
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const first = result.error.issues[0];
    const where = first?.path.length ? ` (at ${first.path.join(".")}: ${first.message})` : "";
    throw new AppError(
      "upstream_invalid",
      `The Messaging Hub answered in a shape the console does not understand${where}. Check HUB_BASE_URL points at the Messaging Hub API.`,
    );
  }
  return result.data;
}
