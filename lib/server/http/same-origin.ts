import "server-only";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { firstValue, requestScheme } from "@/lib/server/http/forwarded";
import {
  STATE_CHANGING_METHODS,
  crossOriginReason as sharedReason,
  isCrossSiteFetchSite,
} from "@/lib/domain/same-origin";

/**
 * CSRF defence for state-changing routes (POST, PUT, PATCH, DELETE), on top of SameSite=Lax.
 *
 * A request is refused (403) when the browser says it is not same-origin (the rule, shared with
 * the sandbox's admin routes: lib/domain/same-origin.ts): `Sec-Fetch-Site` cross-site or
 * same-site, an `Origin` that is not ours (`null`, look-alike hosts such as `127.0.0.1.evil.com`),
 * or no `Origin` but a foreign `Referer`. A request with none of these headers is not from a
 * browser that could be tricked, so it passes: tests, curl.
 *
 * "Ours" is, in order: the PUBLIC_ORIGIN list when set (exact match, the most robust behind any
 * proxy); else the `Host` header, or with TRUST_PROXY=1 the first `X-Forwarded-Host` and the
 * scheme of the first `X-Forwarded-Proto`. Without TRUST_PROXY the scheme is not compared: it
 * cannot be known behind a TLS-terminating proxy, and a browser page on another scheme of our
 * own host is not a cross-site attacker.
 */

/** True when the browser marks the request `Sec-Fetch-Site: cross-site` or `same-site` (another origin). */
export function isCrossSiteFetch(request: Request): boolean {
  return isCrossSiteFetchSite(request.headers.get("sec-fetch-site"));
}

/** Why a same-origin check failed, or null when it passed (the rule: lib/domain/same-origin.ts). Exposed for tests. */
export function crossOriginReason(request: Request): string | null {
  const marks = {
    secFetchSite: request.headers.get("sec-fetch-site"),
    origin: request.headers.get("origin"),
    referer: request.headers.get("referer"),
  };
  return sharedReason(marks, (origin) => isOurOrigin(request, origin), "this console");
}

export function isOurOrigin(request: Request, origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes "null"
  }
  if (url.origin !== origin || (url.protocol !== "http:" && url.protocol !== "https:")) return false;

  const { publicOrigins, trustProxy } = serverConfig();
  if (publicOrigins.length > 0) return publicOrigins.includes(url.origin);

  const host =
    (trustProxy ? firstValue(request.headers.get("x-forwarded-host")) : null) ?? request.headers.get("host");
  if (!host) return false;
  let ours: URL;
  try {
    // Normalises case and default ports (":443" on https) the way the Origin header is written.
    ours = new URL(`${url.protocol}//${host}`);
  } catch {
    return false;
  }
  if (ours.host !== url.host || ours.username || ours.pathname !== "/") return false;
  if (trustProxy) {
    const proto = firstValue(request.headers.get("x-forwarded-proto"));
    if (proto && `${proto.toLowerCase()}:` !== url.protocol) return false;
  }
  return true;
}

/** Throws a 403 AppError unless the request is same-origin (see above). */
export function assertSameOrigin(request: Request): void {
  const reason = crossOriginReason(request);
  if (reason) {
    throw new AppError(
      "forbidden",
      `Refused a cross-site request: ${reason}. Use the console from its own address; if it runs behind a proxy, set PUBLIC_ORIGIN (or TRUST_PROXY=1).`,
    );
  }
}

export { STATE_CHANGING_METHODS };

/** localhost, *.localhost, 127.0.0.0/8 and [::1]: browsers treat them as secure contexts even over http. */
export function isLoopbackHost(host: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    /^127(\.\d{1,3}){3}$/.test(hostname) ||
    hostname === "[::1]"
  );
}

let warnedInsecure = false;

/**
 * Logs (once) when a sign-in arrives over plain http at a non-loopback host while the cookie is
 * Secure: the browser will drop the cookie and the person will seem not to stay signed in.
 */
export function warnIfCookieWillBeDropped(request: Request): void {
  if (warnedInsecure || !serverConfig().cookieSecure) return;
  const host = request.headers.get("host") ?? "";
  if (requestScheme(request) === "http" && !isLoopbackHost(host)) {
    warnedInsecure = true;
    console.warn(
      `[console] A sign-in came over plain http to ${host.slice(0, 100)}: browsers drop the Secure session cookie ` +
        "there, so the person will not stay signed in. " +
        "Serve the console over HTTPS (set TRUST_PROXY=1 behind a TLS proxy), or set SESSION_COOKIE_INSECURE=1 on a trusted network.",
    );
  }
}
