/**
 * Who may call what: the `x-api-key` rules of spec part 5 for the `/v1` routes, and the guard of
 * the `/_sandbox/*` admin routes (a bearer token when SANDBOX_ADMIN_TOKEN is set, else loopback only).
 */
import type { IncomingMessage } from "node:http";
import { isLoopbackAddress } from "../domain/loopback-address";
import { STATE_CHANGING_METHODS, crossOriginReason, isJsonContentType } from "../domain/same-origin";
import { HttpError } from "./http";
import { isWellFormedApiKey, secretsEqual } from "./keys";
import type { Store } from "./store";

/** The id of the application whose key the request carries; 401 when missing, malformed or unknown. */
export function authenticate(req: IncomingMessage, store: Store): string {
  const header = req.headers["x-api-key"];
  const apiKey = Array.isArray(header) ? header.join(", ") : header;
  if (apiKey === undefined || apiKey === "") {
    throw new HttpError(401, "missing_api_key", "Send your application's API key in the x-api-key header.");
  }
  if (!isWellFormedApiKey(apiKey)) {
    throw new HttpError(
      401,
      "malformed_api_key",
      "The x-api-key header is malformed: a key is 16 to 256 visible characters without spaces. Copy the key again.",
    );
  }
  const applicationId = store.applicationIdForKey(apiKey);
  if (!applicationId) {
    throw new HttpError(
      401,
      "invalid_api_key",
      "The API key is not valid: it is unknown, or it was replaced by a newer key. Use the application's current key.",
    );
  }
  return applicationId;
}

/** The one header's value (the first, if a client repeated it), or null. */
function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** An Origin is the sandbox's own when it is the address the request was sent to (plain http). */
function isSandboxOrigin(req: IncomingMessage, origin: string): boolean {
  const host = header(req, "host");
  if (!host) return false;
  try {
    return new URL(origin).origin === origin && origin === new URL(`http://${host}`).origin;
  } catch {
    return false;
  }
}

/**
 * A state-changing admin request must come from the sandbox's own origin or from no browser at
 * all (the console's rule, lib/domain/same-origin.ts), and be JSON even without a body: a web page
 * can make a browser POST a form or text/plain to 127.0.0.1, but never `application/json`
 * cross-site without a CORS preflight, which the sandbox never grants.
 */
function refuseCrossSite(req: IncomingMessage): void {
  if (!STATE_CHANGING_METHODS.has(req.method ?? "GET")) return;
  const marks = {
    secFetchSite: header(req, "sec-fetch-site"),
    origin: header(req, "origin"),
    referer: header(req, "referer"),
  };
  const reason = crossOriginReason(marks, (origin) => isSandboxOrigin(req, origin), "this sandbox");
  if (reason) {
    throw new HttpError(
      403,
      "cross_site_refused",
      `Refused a cross-site request to a sandbox admin route: ${reason}. Call the admin routes from a script or curl, not from a web page.`,
    );
  }
  if (!isJsonContentType(header(req, "content-type"))) {
    throw new HttpError(
      415,
      "unsupported_media_type",
      'Sandbox admin routes that change something take JSON only: send "Content-Type: application/json" ' +
        `(got ${JSON.stringify(header(req, "content-type") ?? "no Content-Type")}), with {} or no body when the route takes none.`,
    );
  }
}

/**
 * Throws unless the caller may use the admin routes: a state-changing request must not be a
 * browser's cross-site one and must be JSON (refuseCrossSite), then the token or loopback rule.
 */
export function requireAdmin(req: IncomingMessage, adminToken: string | undefined): void {
  refuseCrossSite(req);
  if (adminToken === undefined) {
    if (isLoopbackAddress(req.socket.remoteAddress)) return;
    throw new HttpError(
      403,
      "admin_loopback_only",
      "The sandbox admin routes answer callers on this machine only. " +
        "Set SANDBOX_ADMIN_TOKEN on the sandbox and send it as 'Authorization: Bearer <token>' to call them from elsewhere.",
    );
  }
  const header = req.headers.authorization ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const challenge = { "www-authenticate": 'Bearer realm="sandbox-admin"' };
  if (!match?.[1]) {
    throw new HttpError(
      401,
      "admin_token_required",
      "This sandbox admin route needs 'Authorization: Bearer <SANDBOX_ADMIN_TOKEN>'.",
      undefined,
      challenge,
    );
  }
  if (!secretsEqual(match[1], adminToken)) {
    throw new HttpError(
      401,
      "invalid_admin_token",
      "The admin token is wrong: send the value of SANDBOX_ADMIN_TOKEN the sandbox was started with.",
      undefined,
      challenge,
    );
  }
}
