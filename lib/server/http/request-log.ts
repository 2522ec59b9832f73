import "server-only";
import { randomUUID } from "node:crypto";
import pino from "pino";
import { decodedOrNull } from "@/lib/domain/percent-decoding";

/**
 * One JSON line on stdout per API request, written by defineRoute. It holds only the fields
 * below: never a header, a query, a body, the cookie or the API key.
 */
export interface RequestLogLine {
  requestId: string;
  method: string;
  /** The route's pattern, e.g. `/api/webhooks/[webhookId]/logs`. */
  route: string;
  status: number;
  durationMs: number;
  /** The hub's HTTP status, when the request called it and an answer came. */
  upstreamStatus?: number;
  /** True when the answer came from another request's call (a shared read). */
  upstreamShared?: boolean;
  /** The client went away before its answer (it closed the connection, or cancelled the request). */
  clientAborted?: boolean;
}

/**
 * The request log: ISO time, the level as a word, no pid or host. It writes through
 * process.stdout (rather than pino's own file descriptor writer) so that tests can read it.
 */
const logger = pino(
  {
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  },
  process.stdout,
);

export function logRequest(line: RequestLogLine): void {
  const { upstreamStatus, upstreamShared, durationMs, clientAborted, ...rest } = line;
  const upstream =
    upstreamStatus === undefined ? {} : { upstreamStatus, upstreamShared: upstreamShared ?? false };
  logger.info(
    { ...rest, durationMs: Math.round(durationMs * 10) / 10, ...upstream },
    clientAborted ? "client abort" : "api request",
  );
}

/** A caller's own X-Request-Id is kept when it is a plain token (letters, digits, `._:-`, up to 128). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the incoming X-Request-Id when sane, else a fresh UUID. */
export function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * The route's pattern from the request's path and Next's raw params: each param's segment named
 * (`[webhookId]`), a catch-all's segments as `[...name]`.
 */
export function routePattern(pathname: string, params: Record<string, unknown>): string {
  const segments = pathname.split("/");
  let from = 0;
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) {
      return [...segments.slice(0, Math.max(from, segments.length - value.length)), `[...${name}]`].join("/");
    }
    const at = segments.findIndex((segment, index) => index >= from && decodedOrNull(segment) === value);
    if (at === -1) continue;
    segments[at] = `[${name}]`;
    from = at + 1;
  }
  return segments.join("/");
}
