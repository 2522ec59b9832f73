/**
 * Who may call what: the `x-api-key` rules of spec part 5 for the `/v1` routes, and the guard of
 * the `/_sandbox/*` admin routes (a bearer token when SANDBOX_ADMIN_TOKEN is set, else loopback only).
 */
import type { IncomingMessage } from "node:http";
import { isLoopbackAddress } from "../domain/loopback-address";
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

/** Throws unless the caller may use the admin routes. */
export function requireAdmin(req: IncomingMessage, adminToken: string | undefined): void {
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
