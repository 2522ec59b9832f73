/**
 * The page's own address, passed by `proxy.ts` to the render in a request header, for what a
 * layout or a not-found page cannot otherwise see (which application `?app=` names, which
 * webhook was not found). proxy.ts always sets it, so it never comes from the browser. No
 * server-only import here: proxy.ts runs it in Next's proxy runtime.
 */
export const PAGE_ADDRESS_HEADER = "x-console-page";

/** The header's value as a URL (path and query on a placeholder origin), or null. */
export function parsePageAddress(value: string | null): URL | null {
  if (!value?.startsWith("/")) return null;
  try {
    return new URL(value, "http://console.invalid");
  } catch {
    return null;
  }
}
