import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, newNonce } from "@/lib/server/http/csp";
import { requestScheme } from "@/lib/server/http/forwarded";
import { malformedPathResponse } from "@/lib/server/http/malformed-path";
import { PAGE_ADDRESS_HEADER } from "@/lib/server/http/page-address";

/**
 * Runs before every request that can render a page, prefetches included: a fresh CSP nonce per
 * request, passed to the render in the request's CSP header (Next reads it there) and sent to the
 * browser, and the page's own address in PAGE_ADDRESS_HEADER, overwriting whatever the browser
 * sent there. Other requests (/api, which answers JSON under its own CSP from next.config.mjs,
 * /metrics, which answers text to Prometheus under the same CSP, and Next's static files) come
 * here only when they carry that header, to have it removed. A
 * path with a malformed percent-encoding, of a page or of /api, is answered 400 here
 * (malformed-path.ts).
 *
 * This is NOT a security boundary for the session: every route handler and page checks the
 * session itself (Next 16 renamed middleware to proxy; the advice stands).
 */
export function proxy(request: NextRequest) {
  const malformed = malformedPathResponse(request.nextUrl.pathname);
  if (malformed) return malformed;
  const requestHeaders = new Headers(request.headers);
  const { pathname, search } = request.nextUrl;
  if (!isPagePath(pathname)) {
    requestHeaders.delete(PAGE_ADDRESS_HEADER);
    return NextResponse.next({ request: { headers: requestHeaders } });
  }
  const nonce = newNonce();
  const csp = contentSecurityPolicy({ nonce, https: requestScheme(request) === "https" });
  requestHeaders.set("content-security-policy", csp);
  requestHeaders.set(PAGE_ADDRESS_HEADER, `${pathname}${search}`);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

/** The first matcher below, in code. */
function isPagePath(pathname: string): boolean {
  return !/^\/(api\/|metrics$|_next\/static\/|_next\/image$)/.test(pathname);
}

/**
 * Every page path, whatever the request's headers: a prefetched document is shown as it came, so
 * it needs its CSP as much as a navigation does. Any other path only with the internal header.
 */
export const config = {
  matcher: [
    "/((?!api/|metrics$|_next/static/|_next/image$).*)",
    { source: "/:path*", has: [{ type: "header", key: "x-console-page" }] },
    // An /api path with a percent sign, which may be malformed (malformed-path.ts).
    "/api/:path(.*%.*)",
  ],
};
