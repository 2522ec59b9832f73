import "server-only";
import { z } from "zod";
import { parseRetryAfter } from "@/lib/domain/retry-after";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { arrivedAt } from "@/lib/server/http/arrival";
import { readCapped } from "@/lib/server/http/read-capped";
import type { ChannelKind, WebhookId } from "@/lib/server/hub/path-params";
import { cancelledByClient, sharedRead, type ReadReport } from "@/lib/server/hub/shared-reads";
import { apiKeyHash } from "@/lib/server/session/key-hash";
import {
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
 * Identical GETs of one key share a call (shared-reads.ts).
 */

/** Who is calling and when to give up. */
export interface HubCall {
  /** Sent as `x-api-key`; empty for the sandbox's admin routes, which take none. */
  apiKey: string;
  /** Aborted when the browser goes away: the upstream call is cancelled too (once no other request shares it). */
  signal?: AbortSignal;
  /** When the request arrived (performance.now()); a shared read started before it is not used. Default: arrivedAt(). */
  since?: number;
  /** An auto-refresh poll: a GET may be answered from the same read at most POLL_REUSE_MS old. */
  poll?: boolean;
  /** False: share the GET only while it is in flight, keep no answer for polls (see shared-reads.ts). */
  keep?: boolean;
  /** Told the upstream status of the answer used (when one came) and whether another request's call gave it. */
  report?: ReadReport;
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

/** What a 404 on a webhook's paths means, said to a person. */
function webhookNotFound(webhookId: string): string {
  return `No webhook ${webhookId} was found for this API key. Check the ID, or sign in with the key of the application that owns it.`;
}

export async function getWebhook(call: HubCall, webhookId: WebhookId): Promise<Webhook> {
  return hubRequest(call, {
    path: `/v1/organization/webhook/${encodeURIComponent(webhookId)}`,
    schema: webhookSchema,
    notFound: webhookNotFound(webhookId),
  });
}

/** A webhook id no webhook has: asking for it tells whether the hub accepts a key, and reads nothing. */
const NO_WEBHOOK = "00000000-0000-4000-8000-000000000000" as WebhookId;

/**
 * Checks a key with the hub before the console keeps it: the spec offers no "who am I", so it
 * asks for a webhook that does not exist. 404 (or, oddly, 200): the key is accepted. 401: the
 * AppError `unauthorized`. Anything else (unreachable, 5xx, 429): that AppError, so the key is
 * neither kept nor called bad.
 */
export async function checkApiKey(call: HubCall): Promise<void> {
  try {
    await getWebhook(call, NO_WEBHOOK);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return;
    throw error;
  }
}

export async function listWebhookLogs(
  call: HubCall,
  webhookId: WebhookId,
  query: WebhookLogQuery,
): Promise<WebhookLogPage> {
  return hubRequest(call, {
    path: `/v1/organization/webhook/${encodeURIComponent(webhookId)}/webhook-log`,
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
  channelKind: ChannelKind,
  message: SendMessage,
): Promise<SendMessageResult> {
  const answer = await hubRequest(call, {
    method: "POST",
    path: `/v1/communication/${encodeURIComponent(channelKind)}/message`,
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
export async function retryWebhookLog(call: HubCall, webhookId: WebhookId, logId: string): Promise<never> {
  void call;
  void webhookId;
  void logId;
  throw new AppError(
    "not_supported",
    "The Messaging Hub API does not offer retry yet: its documentation names no path for it. " +
      "The delivery log stays as it is; to deliver again, send a new test message.",
  );
}

/** One demo application of the local sandbox: its key and what it can see. */
const sandboxDemoApplicationSchema = z.looseObject({
  name: z.string().default("Demo application"),
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

/** `GET /_sandbox/demo` of the local sandbox (not part of the spec): the first demo application, and every one. */
const sandboxDemoSchema = sandboxDemoApplicationSchema.extend({
  applications: z.array(sandboxDemoApplicationSchema).default([]),
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

  const method = spec.method ?? "GET";
  const headers: Record<string, string> = { ...spec.headers, accept: "application/json" };
  if (call.apiKey) headers["x-api-key"] = call.apiKey;
  if (spec.body !== undefined) headers["content-type"] = "application/json";
  const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);

  const exchange = async (
    callerSignal: AbortSignal | undefined,
    onStatus: (status: number) => void,
    waitedMs = 0,
  ) => {
    const timeout = AbortSignal.timeout(Math.max(0, Math.ceil(hubTimeoutMs - waitedMs)));
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    let response: UpstreamAnswer;
    try {
      response = await send(url, { method, headers, body, signal }, onStatus);
    } catch (error) {
      throw transportError(error, timeout, callerSignal, hubTimeoutMs);
    }
    if (!response.ok) throw statusError(response, response.text, spec, call.apiKey);
    return parseAnswer(response.text, spec.schema);
  };

  if (method === "GET" && call.apiKey) {
    const key = `${apiKeyHash(call.apiKey)} ${url.href}`;
    const options = {
      since: call.since ?? arrivedAt(),
      poll: call.poll ?? false,
      signal: call.signal,
      keep: call.keep,
    };
    return sharedRead(key, options, exchange, call.report);
  }
  let status: number | undefined;
  try {
    return await exchange(call.signal, (answered) => (status = answered));
  } finally {
    call.report?.(status, false);
  }
}

/**
 * One request: the answer's status, headers and body as UTF-8 text, refusing a body past
 * MAX_UPSTREAM_BODY_BYTES. Redirects are not followed. `signal` aborts it and closes the connection.
 */
async function send(
  url: URL,
  init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string; signal: AbortSignal },
  onStatus: (status: number) => void,
): Promise<UpstreamAnswer> {
  const response = await fetch(url, { ...init, redirect: "manual", cache: "no-store" });
  onStatus(response.status);
  const text = await readCapped(
    response.body,
    response.headers.get("content-length"),
    MAX_UPSTREAM_BODY_BYTES,
    tooLarge,
  );
  return { status: response.status, ok: response.ok, headers: response.headers, text };
}

/** An upstream answer: what statusError and parseAnswer need of it. */
interface UpstreamAnswer {
  status: number;
  ok: boolean;
  headers: Headers;
  text: string;
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
  if (clientSignal?.aborted) return cancelledByClient(error);
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
