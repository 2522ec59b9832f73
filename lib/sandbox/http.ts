/**
 * HTTP plumbing of the sandbox server: the one error type and JSON shape, reading a JSON body
 * (415 / 413 / 400), parsing with zod into 400s that name the fields, and a tiny router that
 * answers 404 for unknown paths and 405 (with `Allow`) for a known path with the wrong method.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";

/** Largest request body accepted (413 past it). */
const MAX_REQUEST_BODY_BYTES = 64 * 1024;

interface FieldIssue {
  path: string;
  message: string;
}

/** Every error answer is `{ "error": { "code", "message" } }`, plus `issues` for invalid input. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: FieldIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "HttpError";
  }

  toBody() {
    return {
      error: { code: this.code, message: this.message, ...(this.issues ? { issues: this.issues } : {}) },
    };
  }
}

/** Answers `text` with its `content-type` and `content-length`, then `headers`. */
export function sendText(
  res: ServerResponse,
  status: number,
  contentType: string,
  text: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, {
    "content-type": contentType,
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  sendText(res, status, "application/json; charset=utf-8", JSON.stringify(body), {
    "cache-control": "no-store",
    ...headers,
  });
}

export function sendError(res: ServerResponse, error: HttpError) {
  sendJson(res, error.status, error.toBody(), error.headers);
}

/** The zod issues as `{ path, message }`; an issue about the value as a whole gets the path `root`. */
function issuesOf(error: z.ZodError, root: string): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || root,
    message: issue.message,
  }));
}

/**
 * Parses `value` with `schema`, or throws a 400 `invalid_<what>` (what in snake_case, e.g.
 * `webhook_id`) whose message and `issues` name every field problem.
 */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = issuesOf(parsed.error, what);
  // A message written with fieldMessage() names its field already; the others get the path in front.
  const named = (i: FieldIssue) => i.path === what || i.message.startsWith(`${i.path}: `);
  const summary = issues.map((i) => (named(i) ? i.message : `${i.path}: ${i.message}`)).join("; ");
  throw new HttpError(
    400,
    `invalid_${what}`,
    `The ${what.replaceAll("_", " ")} is invalid: ${/[.!?]$/.test(summary) ? summary : `${summary}.`}`,
    issues,
  );
}

function isJsonContentType(header: string | undefined): boolean {
  const type = header?.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/**
 * Reads and parses a JSON request body: 415 unless `Content-Type` is JSON, 413 past `limit`
 * bytes, 400 when it is not valid JSON.
 */
export async function readJsonBody(req: IncomingMessage, limit = MAX_REQUEST_BODY_BYTES): Promise<unknown> {
  const text = await readJsonText(req, limit);
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "invalid_json", "The request body is not valid JSON.");
  }
}

/** The body of a JSON request as the bytes came (what a signature covers), with readJsonBody's 415 and 413. */
export async function readJsonText(req: IncomingMessage, limit = MAX_REQUEST_BODY_BYTES): Promise<string> {
  if (!isJsonContentType(req.headers["content-type"])) {
    req.resume();
    throw new HttpError(
      415,
      "unsupported_media_type",
      `Send the body as JSON with "Content-Type: application/json" (got ${JSON.stringify(req.headers["content-type"] ?? "no Content-Type")}).`,
    );
  }
  const tooLarge = () =>
    new HttpError(
      413,
      "payload_too_large",
      `The request body is larger than ${limit} bytes; send a smaller body.`,
      undefined,
      {
        connection: "close",
      },
    );
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > limit) {
      req.resume();
      throw tooLarge();
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

// ---- routing ------------------------------------------------------------------------------

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Path segments captured by `:name` in the route pattern, already URI-decoded. */
  params: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => Promise<void> | void;

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

interface Route {
  method: Method;
  segments: string[];
  handler: Handler;
}

export class Router {
  private readonly routes: Route[] = [];

  /** `pattern` is a path such as `/v1/organization/webhook/:webhookId`; `:name` matches one segment. */
  add(method: Method, pattern: string, handler: Handler): this {
    this.routes.push({ method, segments: pattern.split("/").filter(Boolean), handler });
    return this;
  }

  /** The handler and params for the request, or an HttpError (404 unknown path, 405 wrong method). */
  match(method: string, pathname: string): { handler: Handler; params: Record<string, string> } | HttpError {
    const parts = pathname.split("/").filter(Boolean);
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method || (method === "HEAD" && route.method === "GET")) {
        return { handler: route.handler, params };
      }
      allowed.add(route.method);
    }
    if (allowed.size > 0) {
      const allow = [...allowed].join(", ");
      return new HttpError(
        405,
        "method_not_allowed",
        `${method} is not allowed on ${pathname}; use ${allow}.`,
        undefined,
        {
          allow,
        },
      );
    }
    return new HttpError(
      404,
      "route_not_found",
      `No route ${method} ${pathname}. See lib/sandbox/README.md for the routes.`,
    );
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i] ?? "";
    const got = parts[i] ?? "";
    if (want.startsWith(":")) {
      try {
        params[want.slice(1)] = decodeURIComponent(got);
      } catch {
        return undefined;
      }
    } else if (want !== got) {
      return undefined;
    }
  }
  return params;
}
