/**
 * One delivery attempt: POST the event to the endpoint and turn whatever happens into a
 * `statusCode` and `responseBody` for the log (spec part 6).
 *
 * - The whole exchange (connect, headers, body) must finish within `timeoutMs`, else statusCode 0.
 * - Connection refused, DNS failure, TLS failure, reset, an invalid URL: statusCode 0, with a
 *   `[sandbox] …` note as the body saying what happened.
 * - Redirects are not followed: a 3xx is recorded as it is (Failed).
 * - The body is kept up to RESPONSE_BODY_MAX_BYTES, then cut with a visible marker.
 *
 * node:http rather than fetch: fetch refuses "bad ports" (1, 6000, ...) that a hub would call.
 */

import http from "node:http";
import https from "node:https";

/** Largest response body stored in a log; past it the body is cut and TRUNCATION_MARKER added. */
export const RESPONSE_BODY_MAX_BYTES = 64 * 1024;
/** Past this many bytes read, the sandbox stops reading a response body at all. */
const READ_LIMIT_BYTES = 16 * 1024 * 1024;

export const TRUNCATION_MARKER_PREFIX = "\n…[truncated by sandbox: ";
const truncationMarker = (notStored: number, complete: boolean) =>
  `${TRUNCATION_MARKER_PREFIX}${complete ? "" : "more than "}${notStored} bytes not stored]`;

export type AttemptOutcome =
  | { kind: "answered"; statusCode: number; responseBody: string }
  /** Stopped because the sandbox is shutting down: nothing to log, the delivery stays queued. */
  | { kind: "interrupted" };

export interface AttemptRequest {
  endpoint: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Aborted when the sandbox shuts down. */
  shutdown: AbortSignal;
}

const noConnection = (what: string): AttemptOutcome => ({
  kind: "answered",
  statusCode: 0,
  responseBody: `[sandbox] No answer from the endpoint: ${what}.`,
});

export async function attemptDelivery(request: AttemptRequest): Promise<AttemptOutcome> {
  let url: URL;
  try {
    url = new URL(request.endpoint);
  } catch {
    return noConnection(`the endpoint ${JSON.stringify(request.endpoint)} is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return noConnection(`the endpoint must be an http or https URL, not ${url.protocol}`);
  }
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = AbortSignal.any([timeout, request.shutdown]);
  try {
    const { statusCode, responseBody } = await post(url, request, signal);
    return { kind: "answered", statusCode, responseBody };
  } catch (error) {
    if (request.shutdown.aborted) return { kind: "interrupted" };
    if (timeout.aborted) {
      return noConnection(`no complete answer within ${request.timeoutMs} ms (SANDBOX_DELIVERY_TIMEOUT_MS)`);
    }
    return noConnection(describeError(error, url));
  }
}

/**
 * One POST over node:http(s): a fresh connection (no keep-alive, so no stale-socket races),
 * redirects not followed, aborted by `signal` at any stage.
 */
function post(
  url: URL,
  request: AttemptRequest,
  signal: AbortSignal,
): Promise<{ statusCode: number; responseBody: string }> {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(request.body, "utf8");
    const client = url.protocol === "https:" ? https : http;
    const req = client.request(
      url,
      {
        method: "POST",
        headers: { ...request.headers, "content-length": body.length },
        agent: false,
        signal,
      },
      (res) => {
        const collector = new BodyCollector();
        const statusCode = res.statusCode ?? 0;
        res.on("data", (chunk: Buffer) => {
          if (!collector.add(chunk)) return;
          res.destroy();
          resolve({ statusCode, responseBody: collector.text() });
        });
        res.on("end", () => resolve({ statusCode, responseBody: collector.text() }));
        res.on("error", reject);
        res.on("close", () => {
          if (!res.complete)
            reject(
              Object.assign(new Error("the connection closed before the whole answer"), {
                code: "ECONNRESET",
              }),
            );
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Keeps the first RESPONSE_BODY_MAX_BYTES of a body and counts the rest. */
class BodyCollector {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private total = 0;
  private complete = true;

  /** Adds a chunk; true when READ_LIMIT_BYTES is reached and reading should stop. */
  add(chunk: Buffer): boolean {
    this.total += chunk.length;
    if (this.keptBytes < RESPONSE_BODY_MAX_BYTES) {
      const take = chunk.subarray(0, RESPONSE_BODY_MAX_BYTES - this.keptBytes);
      this.kept.push(take);
      this.keptBytes += take.length;
    }
    if (this.total >= READ_LIMIT_BYTES) this.complete = false;
    return !this.complete;
  }

  text(): string {
    const bytes = Buffer.concat(this.kept);
    if (this.total <= RESPONSE_BODY_MAX_BYTES && this.complete) return bytes.toString("utf8");
    const cut = utf8Boundary(bytes);
    return bytes.subarray(0, cut).toString("utf8") + truncationMarker(this.total - cut, this.complete);
  }
}

/** Where to cut `bytes` so that its last UTF-8 character is whole. */
function utf8Boundary(bytes: Buffer): number {
  const end = bytes.length;
  let start = end - 1;
  while (start > 0 && end - start < 4 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
  const lead = bytes[start] ?? 0;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return start + length > end ? start : end;
}

/** The error's `code`, looking into `cause` and (for AggregateError, from happy eyeballs) `errors[0]`. */
function errorCode(error: unknown, depth = 0): string | undefined {
  if (typeof error !== "object" || error === null || depth > 4) return undefined;
  if ("code" in error && typeof error.code === "string") return error.code;
  if ("errors" in error && Array.isArray(error.errors)) return errorCode(error.errors[0], depth + 1);
  return "cause" in error ? errorCode(error.cause, depth + 1) : undefined;
}

function describeError(error: unknown, url: URL): string {
  const code = errorCode(error);
  const where = url.host;
  if (code === "ECONNREFUSED") return `connection refused by ${where} (ECONNREFUSED): nothing listens there`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return `the host name ${url.hostname} could not be resolved (${code})`;
  if (code && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO/i.test(code)) {
    return `the TLS handshake with ${where} failed (${code}): the certificate is invalid or not trusted`;
  }
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET" || code === "EPIPE") {
    return `the connection to ${where} was closed before a complete answer (${code})`;
  }
  if (
    code === "EHOSTUNREACH" ||
    code === "ENETUNREACH" ||
    code === "ETIMEDOUT" ||
    code === "UND_ERR_CONNECT_TIMEOUT"
  ) {
    return `${where} could not be reached (${code})`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `the request to ${where} failed (${code ? `${code}: ` : ""}${message})`;
}
