/**
 * Reading `X-Forwarded-*` request headers. No module here may import server-only or node-only
 * code: `proxy.ts` runs it in Next's proxy runtime.
 */

/** The first value of a comma-separated header (the client-most proxy's), or null when empty. */
export function firstValue(header: string | null): string | null {
  const first = header?.split(",")[0]?.trim();
  return first ? first : null;
}

/** The request's scheme without ":" ("https", "http"): the first `X-Forwarded-Proto`, else the URL's. */
export function requestScheme(request: Request): string {
  return (
    firstValue(request.headers.get("x-forwarded-proto")) ?? new URL(request.url).protocol.replace(":", "")
  );
}
