import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, newNonce } from "@/lib/server/http/csp";
import { requestScheme } from "@/lib/server/http/forwarded";
import { malformedPathResponse } from "@/lib/server/http/malformed-path";
import { PAGE_ADDRESS_HEADER } from "@/lib/server/http/page-address";

/**
 * Runs before every page (not /api, not static files): a fresh CSP nonce per request, passed to
 * the render in the request's CSP header (Next reads it there) and sent to the browser. A path
 * with a malformed percent-encoding, of a page or of /api, is answered 400 here (malformed-path.ts).
 *
 * This is NOT a security boundary for the session: every route handler and page checks the
 * session itself (Next 16 renamed middleware to proxy; the advice stands).
 */
export function proxy(request: NextRequest) {
  const malformed = malformedPathResponse(request.nextUrl.pathname);
  if (malformed) return malformed;
  if (request.nextUrl.pathname.startsWith("/api/")) return NextResponse.next();
  const nonce = newNonce();
  const csp = contentSecurityPolicy({ nonce, https: requestScheme(request) === "https" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  // The page's own address (page-address.ts): always ours, never the browser's.
  requestHeaders.set(PAGE_ADDRESS_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!api/|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
    // An /api path with a percent sign, which may be malformed (malformed-path.ts); nothing else of /api.
    "/api/:path(.*%.*)",
  ],
};
